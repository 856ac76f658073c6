/**
 * 4.5 for kingdoms and empires (A.4-X step E): capital capture and the treasury split (10.3),
 * tax with Good Ruler / Corruption (10.6.2), removal of unsupported empire units (11.5), isolated
 * garrisons disbanded at will (11.3), upkeep with minimal disbanding (10.4), purchases (10.5),
 * the Administration Table column (10.6.1), the treasury (10.7) and the record-sheet row (14.3.3).
 * Nothing here rolls a die, so a plan can be checked exactly when the player gives it.
 */
import { runAuction } from '../diplomacy/auction.ts';
import { isLeased, mercenaryOwnerAt, mercenaryPillageChosen } from '../diplomacy/mercenaries.ts';
import type { EngineContext } from '../model/context.ts';
import type { GameEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import type { EconomicPlan } from '../model/orders.ts';
import type { Stage } from '../model/people.ts';
import { cityAt, moveOrder, playerById, unitsOf } from '../model/queries.ts';
import type { LedgerRow } from '../model/realm.ts';
import { patchRealmPlayer, realmOf, realmPlayer, type StandingBid, withSheetRow } from '../model/realm.ts';
import type { Game, Transition } from '../model/state-ops.ts';
import { addUnit, gainIncome, removeUnits, updatePlayer } from '../model/state-ops.ts';
import { defaultDisband, isMinimalDisband, upkeepOf } from '../model/upkeep.ts';
import { adminColumnCost } from './administration-columns.ts';
import { isolatedGarrisons } from './garrisons.ts';
import {
  capitalCapturer,
  capitalSplit,
  cityValue,
  modifiedTax,
  taxableCities,
  unmodifiedIncome,
} from './income.ts';
import { firstBadPurchase, purchaseCities, purchaseCost } from './purchase.ts';
import { removeOrphanLeaders } from './revolts.ts';
import { removalBreaksSupport, unsupportedUnits } from './support.ts';

/** Everything the economic phase of a kingdom or empire will be, computed from the phase start. */
export interface EconomyPreview {
  readonly player: PlayerId;
  readonly stage: Stage;
  readonly capture: { by: PlayerId; kept: number; plunder: number; lost: number } | null;
  /** Treasury after the capture split (previous column 9 adjusted). */
  readonly carried: number;
  readonly cities: AreaId[];
  readonly capitalPays: boolean;
  /** Column 2 and column 3. */
  readonly tax: number;
  readonly other: number;
  readonly available: number;
  readonly unsupported: UnitId[];
  readonly upkeepUnits: { id: UnitId; upkeep: number }[];
  readonly upkeep: number;
  readonly isolatedGarrisons: UnitId[];
  /** Where the capital marker may go this phase (captured, or off board), else []. */
  readonly capitalChoices: AreaId[];
  /** 11.5: a minimal upkeep disbanding that leaves no other unit unsupported, when one is needed. */
  readonly safeDisband?: UnitId[] | null;
}

const isRealm = (stage: Stage | undefined): stage is 'kingdom' | 'empire' =>
  stage === 'kingdom' || stage === 'empire';

/** 10.3: plunder still to come at this economic phase from enemy capitals this player holds. */
function plunderPending(g: Game, player: PlayerId): number {
  let sum = 0;
  for (const v of g.players) {
    if (v.id === player || !isRealm(v.cycle?.stage) || v.status !== 'active' || !v.capital) continue;
    if (realmPlayer(g, v.id).capitalCapture?.turn === g.turn) continue;
    if (capitalCapturer(g, v.id) === player) sum += capitalSplit(v.money).plunder;
  }
  return sum;
}

/** 10.3: plunder already taken by this player at this turn's economic phase (resolveCaptures). */
function plunderReceived(g: Game, player: PlayerId): number {
  let sum = 0;
  for (const r of Object.values(realmOf(g).players))
    if (r.capitalCapture?.turn === g.turn && r.capitalCapture.by === player) sum += r.capitalCapture.plunder;
  return sum;
}

/** The preview of one kingdom's or empire's economic phase (4.5). */
export function economyPreview(ctx: EngineContext, g: Game, player: PlayerId): EconomyPreview | null {
  const p = playerById(g, player);
  const stage = p?.cycle?.stage;
  if (!p || !isRealm(stage)) return null;
  const rp = realmPlayer(g, player);
  const capturedThisTurn = rp.capitalCapture?.turn === g.turn;
  const by = capturedThisTurn ? null : capitalCapturer(g, player);
  const capture = by ? { by, ...capitalSplit(p.money) } : null;
  const received = plunderReceived(g, player);
  // Tribute (and other income) received since the last row: column 3, already in the treasury.
  const offPhase = rp.offPhaseIncome ?? 0;
  const carried = (capture ? capture.kept : p.money - received) - offPhase;
  // 13.4: cities the hirer's mercenaries pillage pay no tax (the loot is their owner's).
  const sacked = mercenaryPillageChosen(g, player);
  const cities = taxableCities(ctx, g, player).filter((a) => !sacked.includes(a));
  const value = cityValue(ctx, cities);
  const needsCapital = capture !== null || p.capital === null;
  const capitalChoices = needsCapital
    ? purchaseCities(ctx, g, player).filter((a) => a !== p.capital && g.cities[a]?.owner === player)
    : [];
  // 10.3 / AMBIG-19: a marker held off the board goes on a city before taxes, so it pays at once;
  // one taken at this collection pays again only from the next (10.3).
  const onBoard = p.capital !== null || capitalChoices.length > 0;
  const capitalPays = onBoard && !capture && !capturedThisTurn;
  const tax = unmodifiedIncome(value, capitalPays, ctx.options.cfg.unmodifiedIncludesCapital);
  const collected = modifiedTax(value, capitalPays, rp.incomeEffect);
  const other = collected - tax + received + plunderPending(g, player) + offPhase;
  const unsupported = stage === 'empire' ? unsupportedUnits(ctx, g, player).map((u) => u.id) : [];
  // 13.4 / AMBIG-21: hired mercenaries pay no upkeep.
  const upkeepUnits = unitsOf(g, player)
    .filter((u) => !unsupported.includes(u.id) && !isLeased(g, u.id))
    .map((u) => ({ id: u.id, upkeep: upkeepOf(u.kind, stage) }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const available = carried + tax + other;
  const upkeep = upkeepUnits.reduce((q, u) => q + u.upkeep, 0);
  const safeDisband =
    stage === 'empire' && upkeep > available
      ? supportSafeDisband(ctx, g, player, upkeepUnits, available)
      : null;
  return {
    player,
    stage,
    capture,
    carried,
    cities,
    capitalPays,
    tax,
    other,
    available,
    unsupported,
    upkeepUnits,
    upkeep,
    isolatedGarrisons:
      stage === 'empire' ? isolatedGarrisons(ctx, g, player).filter((id) => !unsupported.includes(id)) : [],
    capitalChoices,
    safeDisband,
  };
}

/**
 * 11.5: "no unit may be disbanded if that would leave other units unsupported": a minimal upkeep
 * disbanding (AMBIG-32) that spares the units others' support hangs on, or null if there is none
 * (then upkeep forces the loss, 10.4).
 */
function supportSafeDisband(
  ctx: EngineContext,
  g: Game,
  player: PlayerId,
  units: readonly { id: UnitId; upkeep: number }[],
  available: number,
): UnitId[] | null {
  const critical = new Set(
    units.filter((u) => removalBreaksSupport(ctx, g, player, [u.id])).map((u) => u.id),
  );
  if (critical.size === 0) return null;
  const free = units.filter((u) => !critical.has(u.id));
  const kept = units.filter((u) => critical.has(u.id)).reduce((q, u) => q + u.upkeep, 0);
  const ids = defaultDisband(
    free.map((u) => u.upkeep),
    available - kept,
  ).map((i) => free[i]!.id);
  const dropped = units.filter((u) => ids.includes(u.id)).map((u) => u.upkeep);
  if (
    !isMinimalDisband(
      units.map((u) => u.upkeep),
      dropped,
      available,
    )
  )
    return null;
  return removalBreaksSupport(ctx, g, player, ids) ? null : ids;
}

/** Why a plan is not legal for this preview, or null (10.4, 10.5, 10.6.1, 11.3). */
export function planProblem(
  ctx: EngineContext,
  g: Game,
  pv: EconomyPreview,
  plan: EconomicPlan,
): string | null {
  const garrisons = new Set(plan.garrisonDisband);
  if (garrisons.size !== plan.garrisonDisband.length) return 'duplicate';
  for (const id of garrisons) if (!pv.isolatedGarrisons.includes(id)) return 'garrisonNotIsolated';
  // 11.5: disbanding at will may not leave other units unsupported.
  if (garrisons.size && leavesUnsupported(ctx, g, pv, [...garrisons])) return 'disbandLeavesUnsupported';
  const units = pv.upkeepUnits.filter((u) => !garrisons.has(u.id));
  const disband = new Set(plan.disband);
  if (disband.size !== plan.disband.length) return 'duplicate';
  for (const id of disband) if (!units.some((u) => u.id === id)) return 'notYourUnit';
  const upkeeps = units.map((u) => u.upkeep);
  const dropped = units.filter((u) => disband.has(u.id)).map((u) => u.upkeep);
  if (!isMinimalDisband(upkeeps, dropped, pv.available)) return 'disbandNotMinimal';
  // 11.5: when a disbanding sparing the units others' support hangs on exists, only such a one.
  if (pv.safeDisband && disband.size && removalBreaksSupport(ctx, g, pv.player, [...disband]))
    return 'disbandLeavesUnsupported';
  const upkeep = upkeeps.reduce((s, x) => s + x, 0) - dropped.reduce((s, x) => s + x, 0);
  let left = pv.available - upkeep;
  const after = removeUnits(g, [...disband, ...garrisons, ...pv.unsupported]);
  if (firstBadPurchase(ctx, after, pv.player, pv.stage, plan.purchases) !== -1) return 'badPurchase';
  left -= purchaseCost(pv.stage, plan.purchases);
  if (left < 0) return 'cannotAfford';
  const admin = adminColumnCost(ctx.options, pv.tax, plan.adminPercent);
  if (admin === null || plan.adminPercent % 10 !== 0) return 'badColumn';
  if (admin > left) return 'cannotAfford';
  if (plan.capital !== undefined && plan.capital !== null && !pv.capitalChoices.includes(plan.capital))
    return 'badCapital';
  return null;
}

/** 11.5: would removing these units leave another unit unsupported that is supported now? */
export function leavesUnsupported(
  ctx: EngineContext,
  g: Game,
  pv: EconomyPreview,
  removed: readonly UnitId[],
): boolean {
  return removalBreaksSupport(ctx, g, pv.player, removed);
}

/**
 * 13.4 / AMBIG-21: the hirer's chosen cities are pillaged by its mercenaries: a numbered marker
 * (9.5, in the owner's name) and three times the city's value to the barbarian owner, as income
 * and VP received outside its own collection (record-sheet column 3 of its next row).
 */
function mercenarySack(ctx: EngineContext, g: Game, hirer: PlayerId): Transition {
  let s = g;
  const events: GameEvent[] = [];
  for (const area of mercenaryPillageChosen(g, hirer)) {
    const owner = mercenaryOwnerAt(s, hirer, area);
    if (!owner || s.markers.some((m) => m.area === area)) continue;
    const loot = 3 * (cityAt(ctx, area)?.tax ?? 0);
    const digit = ((s.turn % 10) + 5) % 10; // 9.5, as pillageDigit (turn/economic.ts)
    s = { ...s, markers: [...s.markers, { area, digit, pillager: owner, turn: s.turn }] };
    s = gainIncome(s, owner, loot);
    s = patchRealmPlayer(s, owner, { offPhaseIncome: (realmPlayer(s, owner).offPhaseIncome ?? 0) + loot });
    events.push({ type: 'mercenaryPillage', hirer, owner, area, loot, digit });
  }
  return { state: s, events };
}

/** The plan used when the player gave none: minimal disbanding, nothing bought, 0 % column. */
export function defaultPlan(pv: EconomyPreview): EconomicPlan {
  const idx = defaultDisband(
    pv.upkeepUnits.map((u) => u.upkeep),
    pv.available,
  );
  const safe = pv.safeDisband?.every((id) => pv.upkeepUnits.some((u) => u.id === id)) ? pv.safeDisband : null;
  return {
    disband: safe ?? idx.map((i) => pv.upkeepUnits[i]!.id),
    garrisonDisband: [],
    purchases: [],
    adminPercent: 0,
    capital: bestCapital(pv),
  };
}

const bestCapital = (pv: EconomyPreview): AreaId | null => pv.capitalChoices[0] ?? null;

/** 10.4, 10.7: money left for purchases and administration under a plan's disbanding. */
export function moneyAfterUpkeep(pv: EconomyPreview, plan: EconomicPlan): number {
  const drop = new Set([...plan.disband, ...plan.garrisonDisband]);
  return pv.available - pv.upkeepUnits.filter((u) => !drop.has(u.id)).reduce((s, u) => s + u.upkeep, 0);
}

/**
 * 10.3: before anyone collects, every captured capital splits its owner's treasury; the capturer
 * gets its third as plunder (income and VP, 14.3.1), the marker leaves the board to be placed again.
 */
export function resolveCaptures(g: Game): Transition {
  // Every split is taken from the treasuries as they stood before any plunder moved.
  const captures = moveOrder(g).flatMap((id) => {
    const p = playerById(g, id);
    if (!p || !isRealm(p.cycle?.stage) || !p.capital) return [];
    if (realmPlayer(g, id).capitalCapture?.turn === g.turn) return [];
    const by = capitalCapturer(g, id);
    return by ? [{ id, by, area: p.capital, ...capitalSplit(p.money) }] : [];
  });
  let s = g;
  const events: GameEvent[] = [];
  for (const c of captures) {
    s = updatePlayer(s, c.id, (q) => ({ ...q, money: q.money - c.plunder - c.lost, capital: null }));
    s = gainIncome(s, c.by, c.plunder);
    s = patchRealmPlayer(s, c.id, { capitalCapture: { turn: g.turn, by: c.by, plunder: c.plunder } });
    const { id, by, area, kept, plunder, lost } = c;
    events.push({ type: 'capitalCaptured', player: id, by, area, kept, plunder, lost });
  }
  return { state: s, events };
}

/** 4.5 for one kingdom or empire, after resolveCaptures (so the preview sees the split done). */
export function collectRealm(ctx: EngineContext, g: Game, player: PlayerId): Transition {
  const pv = economyPreview(ctx, g, player);
  if (!pv) return { state: g, events: [] };
  const given = realmPlayer(g, player).plan;
  const plan = given && planProblem(ctx, g, pv, given) === null ? given : defaultPlan(pv);
  const events: GameEvent[] = [];
  let s = g;
  // 10.3 / AMBIG-19: a marker off the board goes on a friendly unpillaged city before taxes.
  const p0 = playerById(s, player)!;
  if (p0.capital === null && pv.capitalChoices.length > 0) {
    const area = plan.capital ?? bestCapital(pv);
    if (area) {
      s = updatePlayer(s, player, (q) => ({ ...q, capital: area }));
      events.push({
        type: 'capitalPlaced',
        player,
        area,
        reason: pv.capture || realmPlayer(g, player).capitalCapture ? 'captured' : 'regained',
      });
    }
  }
  // Tax and other income (the plunder this player took was already added by resolveCaptures).
  const plunder = plunderReceived(g, player) + (realmPlayer(g, player).offPhaseIncome ?? 0);
  const vpBefore = (playerById(s, player)?.cycle?.vp ?? 0) - plunder;
  s = gainIncome(s, player, pv.tax + pv.other - plunder);
  events.push({ type: 'realmTaxCollected', player, tax: pv.tax, other: pv.other, cities: pv.cities });
  const sacked = mercenarySack(ctx, s, player);
  s = sacked.state;
  events.push(...sacked.events);
  // 11.5: unsupported units go first, unpaid; 11.3 isolated garrisons at will.
  if (pv.unsupported.length) {
    s = removeUnits(s, pv.unsupported);
    events.push({ type: 'unsupportedRemoved', player, units: pv.unsupported });
  }
  if (plan.garrisonDisband.length) {
    s = removeUnits(s, plan.garrisonDisband);
    events.push({
      type: 'realmUnitsRemoved',
      player,
      units: [...plan.garrisonDisband],
      reason: 'garrisonDisbanded',
    });
  }
  // 10.4: upkeep, disbanding just enough.
  const drop = new Set([...plan.disband, ...plan.garrisonDisband]);
  const upkeep = pv.upkeepUnits.filter((u) => !drop.has(u.id)).reduce((q, u) => q + u.upkeep, 0);
  if (ctx.options.opt.auction && pv.stage === 'empire' && plan.disband.length > 0) {
    // 13.3: an empire auctions the units it cannot pay for instead of disbanding them.
    const a = runAuction(ctx.options, s, player, plan.disband, standingBids(g));
    s = a.state;
    events.push(...a.events);
  } else s = removeUnits(s, plan.disband);
  events.push({ type: 'upkeepPaid', player, upkeep, disbanded: [...plan.disband] });
  // 10.5: purchases.
  const cost = purchaseCost(pv.stage, plan.purchases);
  const bought: { id: UnitId; kind: (typeof plan.purchases)[number]['kind']; area: AreaId }[] = [];
  for (const b of plan.purchases) {
    const [n, id] = addUnit(s, player, b.kind, b.area);
    s = n;
    bought.push({ id, kind: b.kind, area: b.area });
  }
  if (bought.length) events.push({ type: 'unitsPurchased', player, units: bought, cost });
  // 10.6.1: the column.
  const admin = adminColumnCost(ctx.options, pv.tax, plan.adminPercent) ?? 0;
  if (plan.adminPercent > 0)
    events.push({ type: 'administrationBought', player, percent: plan.adminPercent, cost: admin });
  const treasury = pv.available - upkeep - cost - admin;
  s = updatePlayer(s, player, (q) => ({ ...q, money: treasury }));
  s = removeOrphanLeaders(s, player).state;
  const cycle = playerById(s, player)!.cycle!;
  const row: LedgerRow = {
    player,
    cycle: cycle.number,
    position: cycle.position,
    stage: pv.stage,
    turn: g.turn,
    tax: pv.tax,
    other: pv.other,
    vp: vpBefore + pv.tax + pv.other,
    carried: pv.carried,
    available: pv.available,
    upkeep,
    purchases: cost,
    administration: admin,
    treasury,
    adminPercent: plan.adminPercent,
    adminResult: null,
  };
  s = patchRealmPlayer(s, player, {
    plan: null,
    adminPercent: plan.adminPercent,
    lastIncome: pv.tax,
    lastIncomeTurn: g.turn,
    incomeEffect: null,
    offPhaseIncome: 0,
  });
  s = withSheetRow(s, row);
  events.push({ type: 'ledgerRow', row });
  return { state: s, events };
}

/**
 * 14.3.3 for a barbarian: its row after its tax and loot were collected (column 2 tax,
 * column 3 loot and plunder; no upkeep, no purchases, no administration). `before` is the state
 * just before that collection, `events` what it reported.
 */
export function recordBarbarianLedger(
  g: Game,
  player: PlayerId,
  before: Game,
  events: readonly GameEvent[],
): Transition {
  const p = playerById(g, player);
  const b = playerById(before, player);
  if (!p?.cycle || !b) return { state: g, events: [] };
  let tax = 0;
  let loot = 0;
  for (const e of events) {
    if (e.type === 'taxCollected' && e.player === player) tax += e.tax;
    if (e.type === 'cityPillaged' && e.player === player) loot += e.loot;
  }
  const plunder = plunderReceived(g, player) + (realmPlayer(g, player).offPhaseIncome ?? 0);
  const row: LedgerRow = {
    player,
    cycle: p.cycle.number,
    position: p.cycle.position,
    stage: p.cycle.stage,
    turn: g.turn,
    tax,
    other: loot + plunder,
    vp: p.cycle.vp,
    carried: b.money - plunder,
    available: p.money,
    upkeep: 0,
    purchases: 0,
    administration: 0,
    treasury: p.money,
    adminPercent: 0,
    adminResult: null,
  };
  const s = patchRealmPlayer(withSheetRow(g, row), player, {
    lastIncome: tax,
    lastIncomeTurn: g.turn,
    offPhaseIncome: 0,
  });
  return { state: s, events: [{ type: 'ledgerRow', row }] };
}

/** 13.3: every standing bid made at this turn's economic phase. */
function standingBids(g: Game): StandingBid[] {
  return Object.values(realmOf(g).players).flatMap((r) => (r.bids?.turn === g.turn ? r.bids.list : []));
}

/** 13.3: the empires that will have to auction at this economic phase (upkeep above the money). */
export function auctioneers(ctx: EngineContext, g: Game): PlayerId[] {
  if (!ctx.options.opt.auction) return [];
  return moveOrder(g).filter((id) => {
    const pv = economyPreview(ctx, g, id);
    return pv?.stage === 'empire' && pv.upkeep > pv.available;
  });
}
