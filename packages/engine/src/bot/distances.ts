/**
 * Land distances between every pair of areas (5.1 land links, counted in areas entered), computed
 * once per map and shared by every bot on it. A bot's yardstick for "near", not a movement rule:
 * what a unit may actually reach is always read from the engine's legal orders.
 */
import type { AreaId } from '../model/ids.ts';
import type { MapIndex } from '../model/map-index.ts';

export interface Distances {
  /** Areas entered from `a` to `b` over land links; `FAR` when unconnected. */
  between(a: AreaId, b: AreaId): number;
}

const FAR = 99;

const cache = new WeakMap<MapIndex, Distances>();

export function distancesOf(map: MapIndex): Distances {
  const known = cache.get(map);
  if (known) return known;
  const index = new Map<AreaId, number>(map.areaIds.map((a, i) => [a, i]));
  const n = map.areaIds.length;
  const table = new Uint8Array(n * n).fill(FAR);
  for (let s = 0; s < n; s++) {
    table[s * n + s] = 0;
    let frontier = [map.areaIds[s]!];
    for (let d = 1; frontier.length && d < FAR; d++) {
      const next: AreaId[] = [];
      for (const a of frontier) {
        for (const l of map.landLinks(a)) {
          const j = index.get(l.to);
          if (j === undefined || table[s * n + j] !== FAR) continue;
          table[s * n + j] = d;
          next.push(l.to);
        }
      }
      frontier = next;
    }
  }
  const d: Distances = {
    between(a, b) {
      const i = index.get(a);
      const j = index.get(b);
      return i === undefined || j === undefined ? FAR : table[i * n + j]!;
    },
  };
  cache.set(map, d);
  return d;
}
