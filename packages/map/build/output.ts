/** Where the compiled map lives and how it is serialised (stable, so a fresh build can be compared). */
import { fileURLToPath } from 'node:url';
import type { MapData } from '../src/schema.ts';

export const GENERATED_MAP_FILE = fileURLToPath(new URL('../generated/map.json', import.meta.url));

/** One area or edge per line: small diffs when the source changes, still plain JSON. */
export function formatMapJson(map: MapData): string {
  const lines = (items: readonly unknown[]) => items.map((x) => `    ${JSON.stringify(x)}`).join(',\n');
  return (
    '{\n' +
    `  "version": ${JSON.stringify(map.version)},\n` +
    `  "view": ${JSON.stringify(map.view)},\n` +
    `  "provinces": [\n${lines(map.provinces)}\n  ],\n` +
    `  "areas": [\n${lines(map.areas)}\n  ],\n` +
    `  "edges": [\n${lines(map.edges)}\n  ]` +
    (map.decor ? `,\n  "decor": ${JSON.stringify(map.decor)}\n` : '\n') +
    '}\n'
  );
}
