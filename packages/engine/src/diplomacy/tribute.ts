/**
 * 13.7 Tribute (opt.tribute, AMBIG-20): up to 5 money a turn per pair (or per payer) paid into
 * another player's treasury before the receiver's movement; barbarians never pay; the receiver
 * must have a unit next to a city of the payer, and a kingdom or empire receiver must also have
 * strictly more combat units than the payer. Tribute received is income and VP (column 3).
 */
import type { EngineContext } from '../model/context.ts';
import type { RealmEvent } from '../model/events.ts';
import type { PlayerId } from '../model/ids.ts';
import { cityAt, playerById, unitsOf } from '../model/queries.ts';
import { patchRealmPlayer, realmPlayer } from '../model/realm.ts';
import type { GameStateCore } from '../model/state.ts';
import { gainIncome, updatePlayer } from '../model/state-ops.ts';

const combatUnits = (g: GameStateCore, p: PlayerId): number =>
  unitsOf(g, p).filter((u) => u.kind !== 'leader').length;

/** 13.7: may `payer` pay tribute to `receiver` now? */
function mayPayTribute(ctx: EngineContext, g: GameStateCore, payer: PlayerId, receiver: PlayerId): boolean {
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
function tributeRoom(
  o: { cfg: { tributeCap: number; tributeCapScope: 'perPair' | 'perPayer' } },
  paidToThisReceiver: number,
  paidByPayerInTotal: number,
): number {
  const used = o.cfg.tributeCapScope === 'perPair' ? paidToThisReceiver : paidByPayerInTotal;
  return Math.max(0, o.cfg.tributeCap - used);
}

/** 13.7: while the receiver's player turn has not reached its combat phase (paid "before" it). */
function tributeWindowOpen(g: GameStateCore, receiver: PlayerId): boolean {
  const s = g.step;
  return s.kind === 'playerTurn' && s.player === receiver && s.phase !== 'combat';
}

/** 13.7 / AMBIG-20: the most `payer` may still pay `receiver` now (0 if tribute is not allowed). */
export function tributeAllowance(
  ctx: EngineContext,
  g: GameStateCore,
  payer: PlayerId,
  receiver: PlayerId,
): number {
  if (!tributeWindowOpen(g, receiver) || !mayPayTribute(ctx, g, payer, receiver)) return 0;
  const paid = realmPlayer(g, payer).tributePaid;
  const thisTurn = paid?.turn === g.turn ? paid.to : {};
  const toThis = thisTurn[receiver] ?? 0;
  const total = Object.values(thisTurn).reduce((s, x) => s + x, 0);
  const money = playerById(g, payer)?.money ?? 0;
  return Math.min(money, tributeRoom(ctx.options, toThis, total));
}

/** 13.7: pay tribute: out of the payer's treasury, into the receiver's as income and VP (column 3). */
export function payTribute<S extends GameStateCore>(
  g: S,
  payer: PlayerId,
  receiver: PlayerId,
  amount: number,
): { state: S; events: RealmEvent[] } {
  const rp = realmPlayer(g, payer);
  const prev = rp.tributePaid?.turn === g.turn ? rp.tributePaid.to : {};
  let s = updatePlayer(g, payer, (p) => ({ ...p, money: p.money - amount })) as S;
  s = gainIncome(s, receiver, amount) as S;
  s = patchRealmPlayer(s, payer, {
    tributePaid: { turn: g.turn, to: { ...prev, [receiver]: (prev[receiver] ?? 0) + amount } },
  });
  s = patchRealmPlayer(s, receiver, {
    offPhaseIncome: (realmPlayer(s, receiver).offPhaseIncome ?? 0) + amount,
  });
  return { state: s, events: [{ type: 'tributePaid', from: payer, to: receiver, amount }] };
}
