/**
 * `npm run map:render [-- zoom [x,y,w,h]]`: draws the compiled map to packages/map/render/map.svg and
 * map.png. With a crop box (in map units) it writes only render/crop.png, for close inspection.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { renderSvg } from '../build/render-svg.ts';
import { loadMap } from '../src/index.ts';

const zoom = Number(process.argv[2] ?? '1.5');
const crop = process.argv[3]?.split(',').map(Number);
const dir = new URL('../render/', import.meta.url);
mkdirSync(dir, { recursive: true });
const map = loadMap();
let svg = renderSvg(map);
if (crop && crop.length === 4) {
  const [x, y, w, h] = crop as [number, number, number, number];
  svg = svg.replace(
    /width="\d+" height="\d+" viewBox="[^"]*"/,
    `width="${w}" height="${h}" viewBox="${x} ${y} ${w} ${h}"`,
  );
} else {
  writeFileSync(new URL('map.svg', dir), svg);
}
const png = new Resvg(svg, {
  font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  fitTo: { mode: 'zoom', value: zoom },
}).render();
const name = crop ? 'crop.png' : 'map.png';
writeFileSync(new URL(name, dir), png.asPng());
console.log(`wrote ${new URL(name, dir).pathname} (${png.width}x${png.height})`);
