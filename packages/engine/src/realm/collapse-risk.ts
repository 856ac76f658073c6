/**
 * 11.7.2 result 7, 14.3 (D-28): the chance that this turn's administration ends an empire in a
 * Complete Collapse, foreseen when its economic plan fixes the administration column (10.6.1).
 * The administration phase rolls 2d6 on the column bought (realm/realm-administration.ts); a
 * Rebellion result, or a number below the turns spent as an empire (11.6), calls for a roll on the
 * Rebellion Table, and a capital lost this turn calls for another (10.3). Each Rebellion roll of
 * 7 ends an empire (a kingdom's 7 has no effect). Everything is read off the engine's own tables
 * (administration.json, the Rebellion Table in model/realm.ts), column and count as the administration will use them,
 * as things stand now.
 */
import { administratorAtCapital } from '../diplomacy/leader-types.ts';
import type { Consequence } from '../model/consequences.ts';
import type { EngineContext } from '../model/context.ts';
import type { PlayerId } from '../model/ids.ts';
import { playerById } from '../model/queries.ts';
import { realmPlayer } from '../model/realm.ts';
import type { Game } from '../model/state-ops.ts';
import { adminTableResult, effectivePercent, numberOutcome, turnsCounted } from './administration-columns.ts';
import { capitalCapturer } from './income.ts';
import { collapses, rebellionResult } from './rebellion.ts';

const FACES = [1, 2, 3, 4, 5, 6] as const;

/** The chance, over two dice, that a roll's sum satisfies `hit` (a count out of 36). */
function chanceOf2d6(hit: (sum: number) => boolean): number {
  let ways = 0;
  for (const a of FACES) for (const b of FACES) if (hit(a + b)) ways++;
  return ways / (FACES.length * FACES.length);
}

/**
 * 11.7.2, 14.3: the Complete Collapse this turn's administration could bring an empire that buys
 * the `bought` % column; null when none can (not an empire, or no roll leads there).
 */
export function collapseRisk(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  bought: number,
): Consequence | null {
  const p = playerById(g, player);
  const cycle = p?.cycle;
  if (!p || !cycle || !collapses(cycle.stage)) return null;
  const rp = realmPlayer(g, player);
  const collapseOnRebellion = chanceOf2d6((sum) => rebellionResult(sum) === 'completeCollapse');
  // AMBIG-12: no administration roll in the phase the stage was entered (as the administration decides).
  const rolls = !(cycle.stageTurn === g.turn && !ctx.options.cfg.rollOnConversionTurn);
  const percent = effectivePercent(
    ctx.options,
    cycle.people,
    bought,
    administratorAtCapital(g, player, p.capital),
  );
  const counted = turnsCounted(g.turn, cycle.stageTurn, rp.revivalTurn);
  const rebellion = rolls
    ? chanceOf2d6((sum) => {
        const result = adminTableResult(percent, sum);
        if (result === 'rebellion') return true;
        return typeof result === 'number' && numberOutcome(cycle.stage, result, counted) === 'rebellion';
      })
    : 0;
  // 10.3: a capital taken at this turn's tax collection (already, or still to be split) adds a roll.
  const capitalLost = rp.capitalCapture?.turn === g.turn || capitalCapturer(g, player) !== null;
  const survives = (1 - rebellion * collapseOnRebellion) * (capitalLost ? 1 - collapseOnRebellion : 1);
  // Kept on the grid of two rolls of two dice (36 × 36) so equal chances compare equal.
  const chance = Math.round((1 - survives) * 1296) / 1296;
  if (chance <= 0) return null;
  return {
    kind: 'realmMayCollapse',
    section: '11.7.2',
    chance,
    percent,
    rebellion,
    capitalLost,
  };
}
