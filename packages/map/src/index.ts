/**
 * @bke/map: the compiled map of the BKE world and helpers to look things up in it.
 *
 * The map is authored in packages/map/source, compiled by `npm run map:build` into
 * packages/map/generated/map.json (committed), and validated against the zod schema the first time
 * `loadMap()` is called.
 */
import mapJson from '../generated/map.json' with { type: 'json' };
import { type MapData, mapDataSchema } from './schema.ts';

export * from './map-index.ts';
export * from './schema.ts';

let cached: MapData | null = null;

/** The compiled map, validated once and cached. Treat it as read-only. */
export function loadMap(): MapData {
  if (cached === null) cached = mapDataSchema.parse(mapJson as unknown);
  return cached;
}
