/**
 * The strong bot's combat phase (7): the owed choices first (retreats towards its own units,
 * the cheapest exchange losses, advancing into a city just cleared), then attacks on the most
 * valuable targets at the best odds the engine offers — on the column the engine names for each
 * choice of attackers. A barbarian horde big enough to risk tribal unrest (9.3.5, "no attack
 * made") takes any fair fight it is offered.
 */

import { columnRatio } from '../model/column-ratio.ts';
import type { AreaId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { Order } from '../model/orders.ts';
import type { GameState } from '../model/state.ts';
import { strengthOf } from '../model/units.ts';
import { type Chooser, expand } from '../turn/concrete-orders.ts';
import type { Board } from './board-facts.ts';

/** A column id as a ratio ('3-2' → 1.5); the automatic results count as no chance. */

type Of<T extends string> = Extract<LegalOrder, { type: T }>;

export interface CombatTaste {
  /** Least odds for an attack on a neutral garrison (which never strikes back in its own turn). */
  readonly neutral: number;
  /** Least odds for an attack on another player's units. */
  readonly player: number;
}

const STRONG_COMBAT: CombatTaste = { neutral: 2, player: 2 };

export function strongCombat(
  state: GameState,
  board: Board,
  legal: readonly LegalOrder[],
  choose: Chooser,
  taste: CombatTaste = STRONG_COMBAT,
): Order | null {
  const owed = legal.find(
    (o) =>
      o.type !== 'combatAttack' &&
      o.type !== 'combatDone' &&
      o.type !== 'endPhase' &&
      o.type !== 'combatStop',
  );
  if (owed) return owedChoice(state, board, owed, legal, choose);
  const cityValue = (a: AreaId) => board.targets.find((t) => t.area === a)?.value ?? 0;
  const unrestRisk =
    board.me &&
    state.players.find((p) => p.id === board.me)?.cycle?.stage === 'barbarian' &&
    board.mine.length >= 15 &&
    !state.flags.attacked.includes(board.me);
  let best: { order: Order; score: number } | null = null;
  for (const o of legal) {
    if (o.type !== 'combatAttack') continue;
    const a = o as Of<'combatAttack'>;
    const least = a.defender ? taste.player : taste.neutral;
    // Best column; among equals, the fewest attackers (the others may attack elsewhere).
    const pick = [...a.choices].sort(
      (x, y) =>
        columnRatio(y.odds) + y.shift - (columnRatio(x.odds) + x.shift) ||
        x.attackers.length - y.attackers.length,
    )[0];
    if (!pick) continue;
    const r = columnRatio(pick.odds);
    const landing = a.landing === true; // 8.2: owed, at any odds
    if (!landing && r < least && !(unrestRisk && r >= 1)) continue;
    const score = landing ? 1000 : r * (1 + cityValue(a.target)) + (a.defender ? 1 : 0);
    if (!best || score > best.score)
      best = { order: { type: 'combatAttack', target: a.target, attackers: pick.attackers }, score };
  }
  if (best) return best.order;
  if (legal.some((o) => o.type === 'combatDone')) return { type: 'combatDone' };
  return legal.some((o) => o.type === 'endPhase') ? { type: 'endPhase' } : null;
}

function owedChoice(
  state: GameState,
  board: Board,
  owed: LegalOrder,
  legal: readonly LegalOrder[],
  choose: Chooser,
): Order | null {
  switch (owed.type) {
    case 'combatRetreat': {
      // Towards my own units: the path whose end is nearest to one of them.
      const near = (a: AreaId) =>
        Math.min(
          99,
          ...board.mine.filter((u) => u.id !== owed.unit).map((u) => board.distances.between(a, u.area)),
        );
      const path = [...owed.paths].sort(
        (x, y) => near(x.at(-1) ?? owed.from) - near(y.at(-1) ?? owed.from),
      )[0];
      return { type: 'combatRetreat', unit: owed.unit, path: path ?? [] };
    }
    case 'combatExchangeLoss': {
      const cost = (units: readonly string[]) =>
        units.reduce(
          (s, id) => s + (state.units[id] ? strengthOf(state.units[id]!.kind, state.options) : 0),
          0,
        );
      const set = [...owed.sets].sort((a, b) => cost(a) - cost(b))[0];
      return set ? { type: 'combatExchangeLoss', units: set } : expand(owed, choose);
    }
    case 'combatAdvance': {
      // Into a city (it is owned from the next economic phase); otherwise stop where allowed.
      const city = owed.to.find((a) => board.targets.some((t) => t.area === a));
      if (city && !owed.pursuit) return { type: 'combatAdvance', unit: owed.unit, to: city };
      if (legal.some((o) => o.type === 'combatStop')) return { type: 'combatStop' };
      return expand(owed, choose);
    }
    case 'combatCapture':
      return { type: 'combatCapture', capture: true };
    default:
      return expand(owed, choose);
  }
}
