/**
 * Draws a compiled map as one SVG document for a person to look at (`npm run map:render`). Everything
 * comes from MapData: area shapes, label points, edges and the drawing aids in `decor`.
 */
import type { Area, MapData } from '../src/schema.ts';

/** Province tints: warm for the west, cooler for the east, greens and greys outside the empire. */
const TINTS: Record<string, string> = {
  britannia: '#e9c9a6',
  gaul: '#f0dca0',
  hispania: '#e8b99b',
  mauretania: '#ead3a8',
  africa: '#f1c58f',
  rhaetia: '#d9c7a0',
  italia: '#f2b8a0',
  illyricum: '#c9d6a3',
  macedonia: '#e3d3b6',
  achaia: '#f0c7c0',
  thrace: '#d8c0d8',
  asia: '#c7d9c0',
  cappadocia: '#e6ccb0',
  syria: '#efd59c',
  aegyptus: '#f2dd96',
  cyrenaica: '#e4c9a0',
  armenia: '#b9c9b4',
  mesopotamia: '#cfc8a4',
  persia: '#c4b8a8',
  scythia: '#bfd0a8',
  germania: '#a9c79b',
  caledonia: '#b3c4a8',
  hibernia: '#a8c8a0',
  scandinavia: '#b2c2b8',
  suebia: '#b7cf9a',
  venedia: '#a7bf9e',
  sarmatia: '#b8c8a0',
  fennia: '#bac6c0',
  dacia: '#c2cfa0',
  alania: '#c8cba4',
  aorsia: '#d0cfaa',
  arabia: '#e0d2a8',
  libya: '#e6d8b0',
};

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function text(x: number, y: number, body: string, attrs: string): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${attrs}>${esc(body)}</text>`;
}

function areaLayer(map: MapData): string {
  const out: string[] = [];
  for (const a of map.areas.filter((x) => x.kind === 'sea')) {
    out.push(
      `<path d="${a.path}" fill="#a7c7d9" stroke="#f4f8fb" stroke-width="0.9" stroke-dasharray="3 2"/>`,
    );
  }
  if (map.decor)
    out.push(`<path d="${map.decor.islands}" fill="#d8d0b8" stroke="#8a8a7a" stroke-width="0.3"/>`);
  for (const a of map.areas.filter((x) => x.kind === 'land')) {
    const tint = TINTS[a.province ?? ''] ?? '#cccccc';
    out.push(
      `<path d="${a.path}" fill="${tint}" stroke="#6b5e4a" stroke-width="0.5" stroke-dasharray="2 1.5"/>`,
    );
    if (a.desert) out.push(`<path d="${a.path}" fill="url(#desert)" stroke="none"/>`);
  }
  return out.join('\n');
}

function lineLayer(map: MapData): string {
  const out: string[] = [];
  const d = map.decor;
  if (d) {
    out.push(`<path d="${d.provinceBoundaries}" fill="none" stroke="#3d3428" stroke-width="1.3"/>`);
    out.push(
      `<path d="${d.imperialBoundary}" fill="none" stroke="#9c1c1c" stroke-width="4" stroke-opacity="0.45" stroke-linejoin="round"/>`,
    );
    for (const m of d.mountains) {
      out.push(
        `<path d="${m.path}" fill="none" stroke="#6e4b2a" stroke-width="4.5" stroke-dasharray="1.2 2.2"/>`,
      );
    }
    for (const r of d.rivers)
      out.push(`<path d="${r.path}" fill="none" stroke="#2f6fb3" stroke-width="1.8"/>`);
  }
  return out.join('\n');
}

function connectionLayer(map: MapData, byId: Map<string, Area>): string {
  const out: string[] = [];
  for (const e of map.edges) {
    const a = byId.get(e.a);
    const b = byId.get(e.b);
    if (!a || !b) continue;
    const [x1, y1] = a.label;
    const [x2, y2] = b.label;
    if (e.road) {
      out.push(
        `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#c8161d" stroke-width="1.6" stroke-opacity="0.85"/>`,
      );
    }
    if (e.redArrow) {
      out.push(
        `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#c8161d" stroke-width="2.2" stroke-dasharray="5 2" marker-start="url(#red-arrow)" marker-end="url(#red-arrow)"/>`,
      );
    }
    if (e.whiteArrow) {
      out.push(
        `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#ffffff" stroke-width="2.4" stroke-dasharray="6 3" marker-start="url(#white-arrow)" marker-end="url(#white-arrow)"/>`,
      );
    }
  }
  return out.join('\n');
}

/** Width of an area's outline, to shrink labels that would spill over small areas. */
function widthOf(path: string): number {
  const xs = (path.match(/-?\d+(\.\d+)?/g) ?? []).map(Number).filter((_, i) => i % 2 === 0);
  return Math.max(...xs) - Math.min(...xs);
}

/** A font size (between `min` and `max`) at which `label` fits in `width`. */
function fit(label: string, width: number, min: number, max: number): string {
  return Math.max(min, Math.min(max, (width * 0.95) / (label.length * 0.6))).toFixed(1);
}

function symbolLayer(map: MapData): string {
  const out: string[] = [];
  for (const a of map.areas) {
    const [x, y] = a.label;
    const width = widthOf(a.path);
    if (a.kind === 'sea') {
      out.push(text(x, y, a.name, 'font-size="8.5" font-style="italic" fill="#1d4f77" text-anchor="middle"'));
      if (a.seaCrossingFor.length > 0) {
        out.push(
          text(
            x,
            y + 10,
            a.seaCrossingFor.join(' '),
            'font-size="8" font-weight="bold" fill="#7a1010" text-anchor="middle"',
          ),
        );
      }
      continue;
    }
    if (a.city) {
      // the dot marks the city; its name and value go under it, the area's own name below that
      const fill = a.city.optional ? 'none' : '#c8161d';
      out.push(
        `<circle cx="${x}" cy="${y - 3}" r="3.4" fill="${fill}" stroke="#c8161d" stroke-width="1.3"/>`,
      );
      out.push(
        text(
          x,
          y + 7,
          `${a.city.name} ${a.city.tax}`,
          `font-size="${fit(`${a.city.name} ${a.city.tax}`, width, 4.8, 6.8)}" font-weight="bold" fill="#7a0d12" text-anchor="middle"`,
        ),
      );
      if (a.name !== a.city.name) {
        out.push(
          text(
            x,
            y + 14,
            a.name,
            `font-size="${fit(a.name, width, 4.2, 5.8)}" font-style="italic" fill="#2b2418" text-anchor="middle"`,
          ),
        );
      }
    } else {
      out.push(
        text(
          x,
          y + 2.5,
          a.name,
          `font-size="${fit(a.name, width, 4.2, 6.5)}" fill="#2b2418" text-anchor="middle"`,
        ),
      );
    }
    if (a.garrisonSymbol) {
      out.push(
        `<rect x="${x - 3.5}" y="${y - 13}" width="7" height="7" fill="#fff" stroke="#222" stroke-width="1"/>`,
      );
      out.push(
        `<line x1="${x - 3.5}" y1="${y - 9.5}" x2="${x + 3.5}" y2="${y - 9.5}" stroke="#222" stroke-width="0.8"/>`,
      );
    }
    if (a.aMarked) {
      out.push(
        `<circle cx="${x + 12}" cy="${y - 9}" r="4.5" fill="#fff" stroke="#7a1010" stroke-width="1"/>`,
      );
      out.push(
        text(x + 12, y - 6.6, 'A', 'font-size="7" font-weight="bold" fill="#7a1010" text-anchor="middle"'),
      );
    }
    if (a.startPosition) {
      const w = a.startPosition.length * 5.6 + 6;
      out.push(
        `<rect x="${x - w / 2}" y="${y - 19}" width="${w}" height="10" rx="2" fill="#1f1f1f" opacity="0.85"/>`,
      );
      out.push(
        text(
          x,
          y - 11.2,
          a.startPosition,
          'font-size="8" font-weight="bold" fill="#ffd34d" text-anchor="middle"',
        ),
      );
    }
  }
  return out.join('\n');
}

function legend(map: MapData): string {
  const x = 20;
  const y = map.view.height - 150;
  const rows = [
    '<circle cx="8" cy="-3" r="3.6" fill="#c8161d"/><text x="18" y="0">city with tax value</text>',
    '<circle cx="8" cy="-3" r="3.6" fill="none" stroke="#c8161d" stroke-width="1.3"/><text x="18" y="0">optional city (13.2.3)</text>',
    '<line x1="0" y1="-3" x2="14" y2="-3" stroke="#c8161d" stroke-width="1.6"/><text x="18" y="0">road</text>',
    '<line x1="0" y1="-3" x2="14" y2="-3" stroke="#c8161d" stroke-width="2.2" stroke-dasharray="5 2"/><text x="18" y="0">red arrow (land crossing)</text>',
    '<line x1="0" y1="-3" x2="14" y2="-3" stroke="#2f6fb3" stroke-width="1.8"/><text x="18" y="0">river</text>',
    '<line x1="0" y1="-3" x2="14" y2="-3" stroke="#6e4b2a" stroke-width="4.5" stroke-dasharray="1.2 2.2"/><text x="18" y="0">mountains</text>',
    '<line x1="0" y1="-3" x2="14" y2="-3" stroke="#9c1c1c" stroke-width="4" stroke-opacity="0.45"/><text x="18" y="0">imperial boundary</text>',
    '<rect x="4" y="-7" width="7" height="7" fill="#fff" stroke="#222"/><text x="18" y="0">garrison set-up symbol</text>',
  ];
  const body = rows.map((r, i) => `<g transform="translate(8 ${16 + i * 15})">${r}</g>`).join('');
  return `<g transform="translate(${x} ${y})" font-size="9" fill="#222"><rect width="170" height="135" fill="#fffaf0" stroke="#555" opacity="0.9"/>${body}</g>`;
}

export function renderSvg(map: MapData): string {
  const byId = new Map(map.areas.map((a) => [a.id, a]));
  const { width, height } = map.view;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans">
<title>The BKE world: areas, provinces, cities, roads and the imperial boundary</title>
<defs>
<pattern id="desert" width="6" height="6" patternUnits="userSpaceOnUse"><circle cx="1.5" cy="1.5" r="0.7" fill="#a27b3c"/><circle cx="4.5" cy="4.5" r="0.7" fill="#a27b3c"/></pattern>
<marker id="red-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10Z" fill="#c8161d"/></marker>
<marker id="white-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10Z" fill="#ffffff" stroke="#1d4f77"/></marker>
</defs>
<rect width="${width}" height="${height}" fill="#efe6cf"/>
${areaLayer(map)}
${lineLayer(map)}
${connectionLayer(map, byId)}
${symbolLayer(map)}
${legend(map)}
</svg>
`;
}
