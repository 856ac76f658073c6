/**
 * The invariant that no city in play is both unowned and unguarded, read from the state as any
 * client could: 14.1 — every unowned city holds a neutral garrison (placed, or a pillage marker
 * acting as one once no unit stands on it, 9.5) or a unit about to take it (3). The rules allow
 * two exceptions: 13.2.3 leaves Ecbatana and Susa open once PERSIAN is chosen, and while a combat
 * awaits its advance choice the beaten garrison's return is still open (14.1 regeneration).
 */
import type { GameState, MapIndex } from '../../src/index.ts';

export function unguardedCities(map: MapIndex, state: GameState): string[] {
  const o = state.options;
  if (!o.cfg.neutralReappearsIfNeverOwned || state.combat?.pending) return [];
  const optional = o.opt.optionalCities || o.opt.persianKingdom;
  const held = new Set(
    Object.values(state.units)
      .filter((u) => u.kind !== 'leader')
      .map((u) => u.area as string),
  );
  const out: string[] = [];
  for (const area of map.cityAreas) {
    const city = map.area(area)?.city;
    if (!city || (city.optional && !optional)) continue;
    const c = state.cities[area];
    if (c?.owner || c?.garrisonRemoved || held.has(area) || state.neutrals[area]) continue;
    const marker = state.markers.find((m) => m.area === area);
    if (marker && (!marker.pirates || o.cfg.pirateMarkerIsNeutral)) continue;
    out.push(
      `${area} is unowned and unguarded (14.1: every unowned city holds a neutral garrison; 13.2.3 and a pending advance aside)`,
    );
  }
  return out;
}
