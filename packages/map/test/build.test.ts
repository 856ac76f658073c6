/** The committed packages/map/generated/map.json is exactly what the source compiles to. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildMap } from '../build/compile.ts';
import { formatMapJson, GENERATED_MAP_FILE } from '../build/output.ts';

describe('generated map', () => {
  it('equals a fresh build of packages/map/source (run `npm run map:build` after editing the source)', () => {
    const fresh = formatMapJson(buildMap().map);
    const committed = readFileSync(GENERATED_MAP_FILE, 'utf8');
    expect(committed === fresh).toBe(true);
  }, 180_000);
});
