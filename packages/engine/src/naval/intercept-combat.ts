/**
 * 8.1 Naval interception in play. A ship that survived its sinking roll is checked sea area by sea
 * area along its route; unfriendly ships in coastal areas touching that sea intercept if their owner
 * allows it (engine decision for play at a distance: a standing choice per player, `realmInterception`,
 * on by default). The moving ship must attack each group (ships stacked together fight together) on
 * the CRT, no terrain, leaders' naval shifts counted, carried units not counted.
 */

import { exchangeOutcome } from '../combat/exchange.ts';
import { defenceHalfPoints, oddsColumn } from '../combat/odds.ts';
import { LEADER_PROFILES, leaderTypeOf } from '../diplomacy/leader-types.ts';
import type { EngineContext } from '../model/context.ts';
import { roll2d6, rollDie } from '../model/dice.ts';
import type { RealmEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { intercepts } from '../model/realm.ts';
import type { Game } from '../model/state-ops.ts';
import { removeUnits } from '../model/state-ops.ts';
import { CRT, crtResult } from '../tables/crt.ts';
import { interceptionOutcome, interceptors } from './interception.ts';
import { sinksAfterInterceptionRetreat } from './sinking.ts';

const naval = (g: Game, owner: PlayerId, leaderHere: boolean): number =>
  leaderHere ? LEADER_PROFILES[leaderTypeOf(g, owner)].naval : 0;

export interface InterceptionRun {
  readonly state: Game;
  readonly events: RealmEvent[];
  /** Where the moving ship ends: its destination, back at its start, or null when lost. */
  readonly fate: 'arrived' | 'returned' | 'lost';
  /** Interceptors used against this ship so far (each intercepts a given ship once a turn, 8.1). */
  readonly used: readonly UnitId[];
}

/** One ship of a moving group, with what it carries and its own sinking modifier (5.3). */
export interface Mover {
  readonly ship: UnitId;
  readonly cargo: readonly UnitId[];
  readonly sinkModifier: number;
}

export interface GroupInterceptionRun {
  readonly state: Game;
  readonly events: RealmEvent[];
  /** Each mover's fate, by ship id: on to its destination, back at its start, or lost. */
  readonly fates: Readonly<Record<UnitId, 'arrived' | 'returned' | 'lost'>>;
  readonly used: readonly UnitId[];
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
  _start: AreaId,
  path: readonly AreaId[],
  cargo: readonly UnitId[],
  sinkModifier: number,
  /** 8.2: coastal areas a landing was made into this phase: their ships no longer intercept. */
  blocked: readonly AreaId[] = [],
  usedBefore: readonly UnitId[] = [],
): InterceptionRun {
  const run = resolveGroupInterceptions(
    ctx,
    g,
    player,
    [{ ship, cargo, sinkModifier }],
    path,
    blocked,
    usedBefore,
  );
  return { state: run.state, events: run.events, fate: run.fates[ship] ?? 'lost', used: run.used };
}

/**
 * 8.1 grouping: ships moving together (one `shipMove` with `with`, sharing start and path, so they
 * enter every sea area from the same area and leave it together into the same next one) are
 * intercepted as one unit: one battle per interceptor group, every surviving mover counting 1 on the
 * attacking side (carried units never count). An EX follows 7.2 between the two groups (AMBIG-4 tie
 * policy); the moving side's losses are taken from the end of the group as ordered, so the player
 * decides them in the order itself; movers outliving an EX go on (AMBIG-62, `interceptExContinue`).
 * On ARn every mover goes back and rolls for itself (5.3: ships roll separately). The ships have not
 * been moved yet in `g`.
 */
export function resolveGroupInterceptions(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  movers: readonly Mover[],
  path: readonly AreaId[],
  /** 8.2: coastal areas a landing was made into this phase: their ships no longer intercept. */
  blocked: readonly AreaId[] = [],
  usedBefore: readonly UnitId[] = [],
): GroupInterceptionRun {
  let s = g;
  const events: RealmEvent[] = [];
  const used: UnitId[] = [...usedBefore];
  const fates: Record<UnitId, 'arrived' | 'returned' | 'lost'> = {};
  let alive = [...movers];
  const lose = (gone: readonly Mover[]) => {
    const units = gone.flatMap((m) => [m.ship, ...m.cargo]);
    s = removeUnits(s, units);
    events.push({ type: 'realmUnitsRemoved', player, units, reason: 'interception' });
    for (const m of gone) fates[m.ship] = 'lost';
    alive = alive.filter((m) => !gone.includes(m));
  };
  for (const sea of path) {
    if (ctx.map.area(sea)?.kind !== 'sea') continue;
    for (const group of interceptors(ctx, s, player, sea, used)) {
      if (alive.length === 0) break;
      if (blocked.includes(group.area) || !intercepts(s, group.owner)) continue;
      used.push(...group.ships);
      const leaderAboard = alive.some((m) => m.cargo.some((id) => s.units[id]?.kind === 'leader'));
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
        2 * alive.length,
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
        ship: alive[0]!.ship,
        ...(alive.length > 1 ? { group: alive.map((m) => m.ship) } : {}),
        sea,
        by: group.owner,
        interceptors: group.ships,
        odds: column,
        dice: r.dice,
        result,
      });
      if (result === 'EX') {
        // 7.2 between the two groups, every ship counting 1.
        const ex = exchangeOutcome(alive.length, group.ships.length, ctx.options.cfg.exTie);
        const theirLoss = ex.eliminated === 'attacker' ? group.ships.slice(0, ex.owed) : group.ships;
        s = removeUnits(s, theirLoss);
        events.push({
          type: 'realmUnitsRemoved',
          player: group.owner,
          units: theirLoss,
          reason: 'interception',
        });
        const mine =
          ex.eliminated === 'defender' && ctx.options.cfg.interceptExContinue
            ? alive.slice(alive.length - ex.owed)
            : alive;
        if (mine.length) lose(mine);
        continue;
      }
      const out = interceptionOutcome(result, false, ctx.options.cfg.interceptExContinue);
      if (out.interceptor === 'eliminated') {
        s = removeUnits(s, group.ships);
        events.push({
          type: 'realmUnitsRemoved',
          player: group.owner,
          units: group.ships,
          reason: 'interception',
        });
      }
      if (out.mover === 'eliminated') {
        lose(alive);
        break;
      }
      if (out.mover === 'returns') {
        for (const m of alive) {
          const d = rollDie(s);
          s = d.state;
          const sunk = sinksAfterInterceptionRetreat(out.mustRollAbove, d.value, m.sinkModifier);
          events.push({
            type: 'shipSinkingRolled',
            player,
            ship: m.ship,
            seas: out.mustRollAbove,
            die: d.value,
            modifier: m.sinkModifier,
            sunk,
          });
          if (sunk) s = removeUnits(s, [m.ship, ...m.cargo]);
          fates[m.ship] = sunk ? 'lost' : 'returned';
        }
        return { state: s, events, fates, used };
      }
    }
    if (alive.length === 0) break;
  }
  for (const m of alive) fates[m.ship] = 'arrived';
  return { state: s, events, fates, used };
}
