/** The CLI's map: a JSON file given with --map, else @bke/map's compiled map. */
import { readFileSync } from 'node:fs';
import { loadMap } from '@bke/map';
import type { MapInput } from '../model/map-index.ts';

export function loadMapForCli(path?: string): MapInput {
  return path ? (JSON.parse(readFileSync(path, 'utf8')) as MapInput) : loadMap();
}
