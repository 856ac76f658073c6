/**
 * 8.1 Naval interception: who may intercept a ship moving through a sea area, and what each
 * combat result means for the moving ship and the interceptor (D-8, AMBIG-62). The combat
 * itself uses the CRT with no terrain; carried units do not count.
 */
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import type { GameStateCore } from '../model/state.ts';

/**
 * 8.1: the unfriendly ships that may intercept a ship of `mover` in this sea area: stationary
 * ships of another player in coastal areas touching it, not already used against this ship,
 * and not blocked by a naval landing into their own area this phase.
 */
export function interceptors(
  ctx: EngineContext,
  g: GameStateCore,
  mover: PlayerId,
  sea: AreaId,
  exclude: readonly UnitId[] = [],
): { area: AreaId; ships: UnitId[]; owner: PlayerId }[] {
  if (ctx.map.area(sea)?.kind !== 'sea') return [];
  const out: { area: AreaId; ships: UnitId[]; owner: PlayerId }[] = [];
  for (const shore of ctx.map.shoresOf(sea)) {
    const ships = Object.values(g.units).filter(
      (u) => u.area === shore && u.kind === 'ship' && u.owner !== mover && !exclude.includes(u.id),
    );
    if (ships.length)
      out.push({ area: shore, ships: ships.map((s) => s.id).sort(), owner: ships[0]!.owner as PlayerId });
  }
  return out;
}

export type InterceptionOutcome =
  | { readonly mover: 'continues'; readonly interceptor: 'eliminated' | 'stays' }
  | { readonly mover: 'returns'; readonly mustRollAbove: number; readonly interceptor: 'stays' }
  | { readonly mover: 'eliminated'; readonly interceptor: 'stays' | 'eliminated' };

/**
 * 8.1 (D-8): what a CRT result of the moving ship's (forced) attack on the interceptor means.
 * DE: interceptor gone, mover goes on. DRn: the interceptor stays put and does not roll; mover goes on.
 * EX: losses as 7.2 (`moverSurvives` when the mover's side outlasts it, AMBIG-62).
 * ARn: the mover returns to its start and must roll above n. AE: mover and cargo gone.
 */
export function interceptionOutcome(
  result: string,
  moverSurvivesExchange = false,
  exContinue = true,
): InterceptionOutcome {
  switch (result) {
    case 'DE':
      return { mover: 'continues', interceptor: 'eliminated' };
    case 'DR1':
    case 'DR2':
    case 'DR3':
      return { mover: 'continues', interceptor: 'stays' };
    case 'EX':
      return moverSurvivesExchange && exContinue
        ? { mover: 'continues', interceptor: 'eliminated' }
        : { mover: 'eliminated', interceptor: 'eliminated' };
    case 'AR1':
    case 'AR2':
    case 'AR3':
      return { mover: 'returns', mustRollAbove: Number(result.slice(2)), interceptor: 'stays' };
    default:
      return { mover: 'eliminated', interceptor: 'stays' };
  }
}
