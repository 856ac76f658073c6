/**
 * The CLI's map: @bke/map's loadMap() when that package exports it, else the generated
 * packages/map/generated/map.json read from disk (the engine itself never does I/O).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MapInput } from '../map-index.ts';

export async function loadMapForCli(path?: string): Promise<MapInput> {
  if (path) return JSON.parse(readFileSync(path, 'utf8')) as MapInput;
  try {
    const mod = (await import('@bke/map')) as { loadMap?: () => MapInput };
    if (typeof mod.loadMap === 'function') return mod.loadMap();
  } catch {
    // @bke/map has no index yet: fall back to the generated file.
  }
  const here = dirname(fileURLToPath(import.meta.url));
  const file = resolve(here, '../../../map/generated/map.json');
  return JSON.parse(readFileSync(file, 'utf8')) as MapInput;
}
