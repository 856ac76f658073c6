/**
 * 8.1 Naval interception in play. A ship that survived its sinking roll is checked sea area by sea
 * area along its route; unfriendly ships in coastal areas touching that sea intercept if their owner
 * allows it (engine decision for play at a distance: a standing choice per player, `realmInterception`,
 * on by default). The moving ship must attack each group (ships stacked together fight together) on
 * the CRT, no terrain, leaders' naval shifts counted, carried units not counted.
 */

import { defenceHalfPoints, oddsColumn } from '../combat/odds.ts';
import { roll2d6, rollDie } from '../dice.ts';
import { LEADER_PROFILES, leaderTypeOf } from '../diplomacy/leaders.ts';
import type { EngineContext } from '../engine-context.ts';
import type { AreaId, PlayerId, UnitId } from '../ids.ts';
import type { RealmEvent } from '../ledger/events.ts';
import { realmPlayer } from '../ledger/state.ts';
import type { Game } from '../state-ops.ts';
import { removeUnits } from '../state-ops.ts';
import { CRT, crtResult } from '../tables/crt.ts';
import { interceptionOutcome, interceptors } from './interception.ts';
import { sinksAfterInterceptionRetreat } from './sinking.ts';

/** Does this player intercept when it can (its standing choice; yes by default)? */
export const intercepts = (g: Game, player: PlayerId): boolean => realmPlayer(g, player).intercept ?? true;

const naval = (g: Game, owner: PlayerId, leaderHere: boolean): number =>
  leaderHere ? LEADER_PROFILES[leaderTypeOf(g, owner)].naval : 0;

export interface InterceptionRun {
  readonly state: Game;
  readonly events: RealmEvent[];
  /** Where the moving ship ends: its destination, back at its start, or null when lost. */
  readonly fate: 'arrived' | 'returned' | 'lost';
}

/**
 * 8.1 (D-8, AMBIG-62): resolve every interception along `path` for a ship that left `start`
 * carrying `cargo`. The ship has not been moved yet in `g`.
 */
export function resolveInterceptions(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  ship: UnitId,
  start: AreaId,
  path: readonly AreaId[],
  cargo: readonly UnitId[],
  sinkModifier: number,
): InterceptionRun {
  let s = g;
  const events: RealmEvent[] = [];
  const used: UnitId[] = [];
  const leaderAboard = cargo.some((id) => g.units[id]?.kind === 'leader');
  for (const sea of path) {
    if (ctx.map.area(sea)?.kind !== 'sea') continue;
    for (const group of interceptors(ctx, s, player, sea, used)) {
      if (!intercepts(s, group.owner)) continue;
      used.push(...group.ships);
      const defLeader = Object.values(s.units).some(
        (u) => u.area === group.area && u.owner === group.owner && u.kind === 'leader',
      );
      const shifts = {
        attackerLeader: naval(s, player, leaderAboard),
        defenderLeader: naval(s, group.owner, defLeader),
        fortified: false,
      };
      const odds = oddsColumn(
        CRT,
        2,
        defenceHalfPoints(group.ships.map(() => 1)),
        shifts,
        ctx.options.cfg.crtBelowMin,
        true,
      );
      const r = roll2d6(s);
      s = r.state;
      const result = odds.kind === 'column' ? crtResult(CRT, odds.index, r.sum) : 'AE';
      const column = odds.kind === 'column' ? odds.id : odds.kind;
      events.push({
        type: 'shipIntercepted',
        player,
        ship,
        sea,
        by: group.owner,
        interceptors: group.ships,
        odds: column,
        dice: r.dice,
        result,
      });
      const out = interceptionOutcome(result, false, ctx.options.cfg.interceptExContinue);
      if (out.interceptor === 'eliminated') {
        const lost = result === 'EX' ? group.ships.slice(0, 1) : group.ships;
        s = removeUnits(s, lost);
        events.push({ type: 'realmUnitsRemoved', player: group.owner, units: lost, reason: 'interception' });
      }
      if (out.mover === 'eliminated') {
        s = removeUnits(s, [ship, ...cargo]);
        events.push({ type: 'realmUnitsRemoved', player, units: [ship, ...cargo], reason: 'interception' });
        return { state: s, events, fate: 'lost' };
      }
      if (out.mover === 'returns') {
        const d = rollDie(s);
        s = d.state;
        const sunk = sinksAfterInterceptionRetreat(out.mustRollAbove, d.value, sinkModifier);
        events.push({
          type: 'shipSinkingRolled',
          player,
          ship,
          seas: out.mustRollAbove,
          die: d.value,
          modifier: sinkModifier,
          sunk,
        });
        if (sunk) {
          s = removeUnits(s, [ship, ...cargo]);
          return { state: s, events, fate: 'lost' };
        }
        void start;
        return { state: s, events, fate: 'returned' };
      }
    }
  }
  return { state: s, events, fate: 'arrived' };
}
