/**
 * 13.7 Tribute (opt.tribute, AMBIG-20): up to 5 money a turn per pair (or per payer) paid into
 * another player's treasury before the receiver's movement; barbarians never pay; the receiver
 * must have a unit next to a city of the payer, and a kingdom or empire receiver must also have
 * strictly more combat units than the payer. Tribute received is income and VP (column 3).
 */
import type { EngineContext } from '../engine-context.ts';
import type { PlayerId } from '../ids.ts';
import { cityAt, playerById, unitsOf } from '../queries.ts';
import type { GameStateCore } from '../state.ts';

const combatUnits = (g: GameStateCore, p: PlayerId): number =>
  unitsOf(g, p).filter((u) => u.kind !== 'leader').length;

/** 13.7: may `payer` pay tribute to `receiver` now? */
export function mayPayTribute(
  ctx: EngineContext,
  g: GameStateCore,
  payer: PlayerId,
  receiver: PlayerId,
): boolean {
  if (!ctx.options.opt.tribute || payer === receiver) return false;
  const ps = playerById(g, payer)?.cycle?.stage;
  const rs = playerById(g, receiver)?.cycle?.stage;
  if (!ps || !rs || ps === 'barbarian') return false;
  const nextToPayerCity = unitsOf(g, receiver).some((u) =>
    ctx.map.landLinks(u.area).some((l) => cityAt(ctx, l.to) && g.cities[l.to]?.owner === payer),
  );
  if (!nextToPayerCity) return false;
  return rs === 'barbarian' || combatUnits(g, receiver) > combatUnits(g, payer);
}

/** 13.7 / AMBIG-20: how much more may be paid this turn, given what was already paid. */
export function tributeRoom(
  o: { cfg: { tributeCap: number; tributeCapScope: 'perPair' | 'perPayer' } },
  paidToThisReceiver: number,
  paidByPayerInTotal: number,
): number {
  const used = o.cfg.tributeCapScope === 'perPair' ? paidToThisReceiver : paidByPayerInTotal;
  return Math.max(0, o.cfg.tributeCap - used);
}
