/**
 * The simplest policy that keeps a seat playing: among the legal orders the server listed, take a
 * decision that ends the seat's part of the step, filling each open choice with its first option.
 * It never moves or attacks; a real bot would look at the view and choose better. It knows no
 * rules: every choice comes from the server's list.
 */
import type { LegalOrder, Order } from '@bke/protocol';

type Shape<T extends LegalOrder['type']> = Extract<LegalOrder, { type: T }>;

/** The order to send for `legal`, or null when nothing listed can be turned into one. */
export function choose(legal: readonly LegalOrder[]): Order | null {
  const find = <T extends LegalOrder['type']>(type: T) => legal.find((o): o is Shape<T> => o.type === type);

  // Decisions the step cannot go on without, first.
  const start = find('chooseStart');
  if (start?.areas[0]) return { type: 'chooseStart', position: start.position, area: start.areas[0] };
  const entry = find('placeEntryTribes');
  if (entry && entry.areas.length >= 2)
    return { type: 'placeEntryTribes', areas: [entry.areas[0]!, entry.areas[1]!] };
  const retreat = find('combatRetreat');
  if (retreat?.paths[0]) return { type: 'combatRetreat', unit: retreat.unit, path: retreat.paths[0] };
  const loss = find('combatExchangeLoss');
  if (loss?.sets[0]) return { type: 'combatExchangeLoss', units: loss.sets[0] };
  const elite = find('combatEliteChoice');
  if (elite) return { type: 'combatEliteChoice', refuse: elite.refuse };
  const reroll = find('combatReroll');
  if (reroll) return { type: 'combatReroll', abort: reroll.abort };
  const capture = find('combatCapture');
  if (capture) return { type: 'combatCapture', capture: capture.capture };
  const found = find('foundKingdom');
  if (found?.leaderWith[0])
    return { type: 'foundKingdom', leaderWith: found.leaderWith[0], capital: found.capital[0] ?? null };
  const keep = find('keepGroup');
  if (keep) return { type: 'keepGroup', area: keep.area };
  const remove = find('removeUnits');
  if (remove) return { type: 'removeUnits', units: remove.candidates.slice(0, remove.count) };
  const disband = find('disband');
  if (disband) return { type: 'disband', unit: disband.unit };
  // Then whatever ends the seat's part of the step.
  if (find('combatStop')) return { type: 'combatStop' };
  if (find('combatDone')) return { type: 'combatDone' };
  if (find('endPhase')) return { type: 'endPhase' };
  return null;
}
