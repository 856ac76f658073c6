/**
 * 11.4 Elite units: the owner of an imperial 5-3 may refuse any result that would make it
 * retreat; the attacker then rerolls (at odds recomputed without units that did retreat) or
 * aborts. DE, EX and AE are not retreats. The reroll/abort flow is combat-phase/elite-reroll.ts's; these
 * are the rule's questions.
 */
import type { PlayerId, UnitId } from '../model/ids.ts';
import { playerById } from '../model/queries.ts';
import type { GameStateCore } from '../model/state.ts';

const RETREAT_RESULTS = ['DR1', 'DR2', 'DR3', 'AR1', 'AR2', 'AR3'] as const;

/** 11.4: is this CRT result a retreat (the only kind an elite may refuse)? */
export function isRetreatResult(result: string): boolean {
  return (RETREAT_RESULTS as readonly string[]).includes(result);
}

/** 11.4: which of these units may refuse a retreat: 5-3 elites of an empire-stage owner. */
export function elitesMayRefuse(g: GameStateCore, units: readonly UnitId[], result: string): UnitId[] {
  if (!isRetreatResult(result)) return [];
  return units.filter((id) => {
    const u = g.units[id];
    if (u?.kind !== 'elite') return false;
    return playerById(g, u.owner as PlayerId)?.cycle?.stage === 'empire';
  });
}
