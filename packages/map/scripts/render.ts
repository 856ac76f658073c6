/**
 * `npm run map:render [-- zoom [x,y,w,h]]`: draws the compiled map to packages/map/render/map.svg and
 * map.png. With a crop box (in map units) it writes only render/crop.png, for close inspection.
 * `npm run map:render -- preview` refreshes the committed packages/map/preview.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import { renderSvg } from '../build/render-svg.ts';
import { loadMap } from '../src/index.ts';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: npm run map:render [-- zoom [x,y,w,h]]   (packages/map/render/map.svg and map.png; a crop box writes crop.png)
       npm run map:render -- preview   (refreshes packages/map/preview.png)`);
  process.exit(0);
}

const preview = process.argv[2] === 'preview';
const zoom = preview ? 0.75 : Number(process.argv[2] ?? '1.5');
const crop = process.argv[3]?.split(',').map(Number);
const dir = new URL('../render/', import.meta.url);
mkdirSync(dir, { recursive: true });
const map = loadMap();
const svg = renderSvg(map);
const full = new Resvg(svg, {
  font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  fitTo: { mode: 'zoom', value: zoom },
}).render();
let png = full;
if (crop && crop.length === 4) {
  // cut the window out of the full picture (resvg mishandles some cropped viewBoxes of this map)
  const [x, y, w, h] = crop.map((n) => n * zoom) as [number, number, number, number];
  const href = `data:image/png;base64,${full.asPng().toString('base64')}`;
  const window =
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${w}" height="${h}">` +
    `<image x="${-x}" y="${-y}" width="${full.width}" height="${full.height}" xlink:href="${href}"/></svg>`;
  png = new Resvg(window).render();
} else {
  writeFileSync(new URL('map.svg', dir), svg);
}
// `preview` refreshes the small committed picture packages/map/preview.png
const out = preview
  ? new URL('../preview.png', import.meta.url)
  : new URL(crop ? 'crop.png' : 'map.png', dir);
writeFileSync(out, png.asPng());
console.log(`wrote ${fileURLToPath(out)} (${png.width}x${png.height})`);
