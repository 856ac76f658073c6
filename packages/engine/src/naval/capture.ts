/**
 * 8.4 Capture of ships (AMBIG-59): a lone ship given DE may be captured instead of eliminated,
 * if one attacking unit advances into its area; it becomes a ship of the captor's colour and,
 * for a kingdom or empire, pays upkeep like any other.
 */
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import type { GameStateCore } from '../model/state.ts';
import { addUnit, removeUnits } from '../model/state-ops.ts';

/** 8.4: may the ship in this area be captured on a DE? Only a lone ship (nothing else of its owner). */
export function capturableShip(g: GameStateCore, area: AreaId): UnitId | null {
  const here = Object.values(g.units).filter((u) => u.area === area && u.kind !== 'leader');
  return here.length === 1 && here[0]!.kind === 'ship' ? here[0]!.id : null;
}

/** 8.4: replace the captured ship by one of the captor's colour. */
export function captureShip(
  g: GameStateCore,
  ship: UnitId,
  captor: PlayerId,
): { state: GameStateCore; ship: UnitId } | null {
  const u = g.units[ship];
  if (u?.kind !== 'ship') return null;
  const [s, id] = addUnit(removeUnits(g, [ship]), captor, 'ship', u.area);
  return { state: s, ship: id };
}
