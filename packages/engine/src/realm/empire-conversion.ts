/**
 * 11.1 Conversion from kingdom to empire: compulsory replacements, the owner's choice of which
 * 4-2 infantry become (4)-0 garrisons, and the three cases where a 4-2 may not.
 */

import { leaderTypeOf } from '../diplomacy/leader-types.ts';
import { isLeased } from '../diplomacy/mercenaries.ts';
import type { EngineContext } from '../model/context.ts';
import type { PlayerId, UnitId } from '../model/ids.ts';
import { unitsOf } from '../model/queries.ts';
import { patchRealmPlayer } from '../model/realm.ts';
import type { GameStateCore } from '../model/state.ts';
import { type Game, patchUnit, removeUnits, type Transition, updatePlayer } from '../model/state-ops.ts';
import type { Unit, UnitKind } from '../model/units.ts';
import { noteOutcome } from './record.ts';

/**
 * 11.1 / B.1: what a kingdom unit becomes; null = removed. 4-2 infantry stay 4-2 here (the
 * garrison choice is separate). A leader is removed unless it is kept (13.6 dynastic leader).
 */
function empireKindOf(kind: UnitKind, keepLeader = false): UnitKind | null {
  switch (kind) {
    case 'cavalry':
    case 'barbarianHorse':
      return 'elite';
    case 'bow':
    case 'horseBow':
    case 'tribe':
      return null;
    case 'barbarianInfantry':
      return 'infantry';
    case 'leader':
      return keepLeader ? 'leader' : null;
    default:
      return kind;
  }
}

/** 11.1: why a 4-2 may not become a garrison, or null if it may. */
export function garrisonRefusal(
  ctx: EngineContext,
  g: GameStateCore,
  unit: Unit,
): 'notInfantry' | 'stackedWithShip' | 'desert' | 'outsideBoundary' | null {
  if (unit.kind !== 'infantry') return 'notInfantry';
  const area = ctx.map.area(unit.area);
  if (Object.values(g.units).some((u) => u.area === unit.area && u.owner === unit.owner && u.kind === 'ship'))
    return 'stackedWithShip';
  if (area?.desert) return 'desert';
  if (!area?.insideEmpire) return 'outsideBoundary';
  return null;
}

/** 11.1: the player's 4-2s that may be turned into garrisons at conversion. */
export function garrisonCandidates(ctx: EngineContext, g: GameStateCore, player: string): UnitId[] {
  return Object.values(g.units)
    .filter((u) => u.owner === player && u.kind === 'infantry' && garrisonRefusal(ctx, g, u) === null)
    .map((u) => u.id)
    .sort();
}

/** 11.1: the kingdom becomes an empire now, these 4-2s turning into (4)-0 garrisons. */
export function becomeEmpire(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  garrisons: readonly UnitId[],
): Transition {
  let s = g;
  const removed: UnitId[] = [];
  for (const u of unitsOf(g, player)) {
    if (isLeased(g, u.id)) continue; // 13.4: hired mercenaries keep their barbarian side
    const k = empireKindOf(u.kind, leaderTypeOf(g, player) === 'dynastic');
    if (k === null) removed.push(u.id);
    else if (u.kind === 'infantry' && garrisons.includes(u.id)) s = patchUnit(s, u.id, { kind: 'garrison' });
    else if (k !== u.kind) s = patchUnit(s, u.id, { kind: k });
  }
  s = removeUnits(s, removed);
  s = updatePlayer(s, player, (q) =>
    q.cycle ? { ...q, cycle: { ...q.cycle, stage: 'empire', stageTurn: g.turn } } : q,
  );
  s = patchRealmPlayer(s, player, { revivalTurn: null });
  s = noteOutcome(s, player, (o) => ({
    ...(o ?? { roll: 0, result: 0, rebellions: [] }),
    becameEmpire: true,
  }));
  void ctx;
  return {
    state: s,
    events: [{ type: 'becameEmpire', player, turn: g.turn, garrisons: [...garrisons], removed }],
  };
}
