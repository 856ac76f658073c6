/** `npm run map:build`: compiles packages/map/source into packages/map/generated/map.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildMap } from '../build/compile.ts';
import { formatMapJson, GENERATED_MAP_FILE } from '../build/output.ts';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(
    'usage: npm run map:build   (compiles packages/map/source into packages/map/generated/map.json)',
  );
  process.exit(0);
}

const started = Date.now();
const { map, notes } = buildMap();
mkdirSync(new URL('../generated', import.meta.url), { recursive: true });
const json = formatMapJson(map);
writeFileSync(GENERATED_MAP_FILE, json);
for (const note of notes) console.log(`note: ${note}`);
const land = map.areas.filter((a) => a.kind === 'land').length;
console.log(
  `map ${map.version}: ${land} land areas, ${map.areas.length - land} sea areas, ${map.edges.length} edges, ` +
    `${(json.length / 1024).toFixed(0)} KiB, ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
