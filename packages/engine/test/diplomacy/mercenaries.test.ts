/**
 * 13.4 mercenary agreements (AMBIG-21): a barbarian offers combat units to a kingdom, the kingdom
 * accepts, the lease takes effect at the next turn start with the price paid then (income and VP of
 * the barbarian, 14.3.1); the hirer commands the units, which pay no upkeep and still count for the
 * owner's unrest and countdown; either side ends it, the units coming back at the next turn start.
 */
import { describe, expect, it } from 'vitest';
import { checkPath, destinations } from '../../src/barbarian/land-movement.ts';
import { targetDefence } from '../../src/combat-phase/declare.ts';
import { leasesAtTurnStart, leasesOf, settleLeases } from '../../src/diplomacy/mercenaries.ts';
import type { GameState, Step } from '../../src/index.ts';
import { initialCombatState } from '../../src/model/combat.ts';
import { countUnits, passableThrough, unitsByArea } from '../../src/model/queries.ts';
import { realmOf, realmPlayer } from '../../src/model/realm.ts';
import { resolveEconomicWithRealms } from '../../src/realm/economic-orders.ts';
import { economyPreview } from '../../src/realm/economy.ts';
import { ledgerProblems } from '../../src/realm/record.ts';
import { endOfPlayerAdmin } from '../../src/turn/administration-phase.ts';
import { collect } from '../../src/turn/economic.ts';
import { startTurn } from '../../src/turn/machine.ts';
import { A, P, U } from '../helpers/scenario.ts';
import { economicStep, realmScenario } from '../realm/fixture.ts';

const movementOf = (player: string): Step => ({
  kind: 'playerTurn',
  player: P(player),
  phase: 'movement',
  moved: [],
  split: [],
});

function position(mercenaries = true) {
  return realmScenario({
    turn: 12,
    players: [
      { id: 'k', position: 'GERMAN 1', stage: 'kingdom', money: 10 },
      { id: 'b', position: 'SLAV 1', money: 0, vp: 20 },
      { id: 'c', position: 'TURK' },
    ],
    units: [
      ['k', 'infantry', 'r0c0'],
      ['b', 'barbarianInfantry', 'r1c2'],
      ['b', 'tribe', 'r0c1'],
      ['b', 'tribe', 'r0c2'],
      ['c', 'tribe', 'r2c0'],
      ['b', 'barbarianHorse', 'r2c2'],
    ],
    owners: { r0c0: 'k' },
    capitals: { k: 'r0c0' },
    options: { opt: { mercenaries } },
    step: movementOf('k'),
  });
}

const money = (g: Pick<GameState, 'players'>, id: string) => g.players.find((p) => p.id === id)!.money;
const vp = (g: Pick<GameState, 'players'>, id: string) => g.players.find((p) => p.id === id)!.cycle!.vp;

function agreed() {
  const { engine, state, ctx } = position();
  const offer = engine.applyOrder(state, P('b'), {
    type: 'realmLeaseOffer',
    hirer: 'k',
    units: ['u2'],
    price: 5,
  });
  if (!offer.ok) throw new Error(JSON.stringify(offer.error));
  const acc = engine.applyOrder(offer.value.state, P('k'), { type: 'realmLeaseAccept', owner: 'b' });
  if (!acc.ok) throw new Error(JSON.stringify(acc.error));
  return { engine, ctx, offered: offer.value.state, state: acc.value.state };
}

describe('13.4 mercenary agreements', () => {
  it('only the barbarian offers, only combat units (no tribes), only with the option', () => {
    const { engine, state } = position();
    const offers = engine.legalOrders(state, P('b')).filter((o) => o.type === 'realmLeaseOffer');
    expect(offers.length).toBeGreaterThan(0);
    expect(
      offers.every(
        (o) =>
          o.type === 'realmLeaseOffer' && o.hirer === 'k' && o.units.every((u) => u === 'u2' || u === 'u6'),
      ),
    ).toBe(true);
    expect(engine.legalOrders(state, P('k')).some((o) => o.type === 'realmLeaseOffer')).toBe(false);
    const tribe = engine.applyOrder(state, P('b'), {
      type: 'realmLeaseOffer',
      hirer: 'k',
      units: ['u3'],
      price: 1,
    });
    expect(tribe.ok).toBe(false);
    const off = position(false);
    const r = off.engine.applyOrder(off.state, P('b'), {
      type: 'realmLeaseOffer',
      hirer: 'k',
      units: ['u2'],
      price: 1,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('order/option_off');
  });

  it('an offer is seen by the two parties only; accepting changes nothing before the next turn start', () => {
    const { engine, offered, state } = agreed();
    expect(engine.view(offered, P('k')).realm?.leases).toHaveLength(1);
    expect(engine.view(offered, P('c')).realm?.leases).toEqual([]);
    expect(leasesOf(state)[0]).toMatchObject({ owner: 'b', hirer: 'k', status: 'accepted', price: 5 });
    expect(state.units.u2?.owner).toBe('b');
    expect(money(state, 'k')).toBe(10);
  });

  it('at the turn start the price is paid (income and VP, 14.3.1) and the hirer commands the units', () => {
    const { engine, ctx, state } = agreed();
    const t = leasesAtTurnStart(state);
    const s = t.state;
    expect(t.events).toContainEqual({
      type: 'leaseStarted',
      owner: 'b',
      hirer: 'k',
      units: ['u2'],
      price: 5,
    });
    expect(money(s, 'k')).toBe(5);
    expect(money(s, 'b')).toBe(5);
    expect(vp(s, 'b')).toBe(25);
    expect(realmPlayer(s, P('b')).offPhaseIncome).toBe(5); // column 3 of its next row
    expect(s.units.u2?.owner).toBe('k');
    // The hirer's legal orders move it; the owner's do not.
    const moves = (p: string) =>
      engine
        .legalOrders(s, P(p))
        .filter((o) => o.type === 'move')
        .map((o) => o.type === 'move' && o.unit);
    expect(moves('k')).toContain('u2');
    expect(engine.view(s, P('c')).realm?.leases).toHaveLength(1); // running leases are public
    // AMBIG-21: no upkeep, still counted for the owner's unrest and countdown, friendly to the owner.
    expect(economyPreview(ctx, s, P('k'))?.upkeep).toBe(2);
    expect(countUnits(s, P('b')).total).toBe(4);
    expect(passableThrough(ctx, s, A('r1c2'), P('b'), unitsByArea(s))).toBe(true);
    expect(passableThrough(ctx, s, A('r1c2'), P('c'), unitsByArea(s))).toBe(false);
    // The owner's horse passes through its mercenary but may not stop with it (one owner an area).
    const horse = s.units.u6!;
    expect(checkPath(ctx, s, horse, [A('r1c2'), A('r0c2')], unitsByArea(s), P('b'))).toBeNull();
    expect(checkPath(ctx, s, horse, [A('r1c2')], unitsByArea(s), P('b'))).toMatchObject({
      code: 'order/blocked',
    });
    const dests = destinations(ctx, s, horse, unitsByArea(s)).map((d) => d.to);
    expect(dests).toContain('r0c2');
    expect(dests).not.toContain('r1c2');
  });

  it('a barbarian whose combat units are all leased out still may not grow tribes (9.2, AMBIG-21)', () => {
    const { ctx, state } = agreed();
    const running = leasesAtTurnStart(state).state;
    const onlyTribes: GameState = {
      ...running,
      units: Object.fromEntries(Object.entries(running.units).filter(([id]) => id !== 'u6')),
    };
    expect(startTurn(ctx, onlyTribes).state.flags.growthBanned).toContain('b');
  });

  it('the barbarian never attacks its own mercenaries: they are friendly to it (13.4)', () => {
    const { ctx, state } = agreed();
    const running = leasesAtTurnStart(state).state;
    const combat = { ...initialCombatState() };
    expect(targetDefence(ctx, running, combat, P('b'), A('r1c2'))).toBeNull();
    expect(targetDefence(ctx, running, combat, P('c'), A('r1c2'))).toMatchObject({ defender: 'k' });
  });

  it('a hirer who cannot pay at the turn start loses the agreement', () => {
    const { state } = agreed();
    const poor = { ...state, players: state.players.map((p) => (p.id === 'k' ? { ...p, money: 2 } : p)) };
    const t = leasesAtTurnStart(poor);
    expect(t.events).toEqual([{ type: 'leaseLapsed', owner: 'b', hirer: 'k' }]);
    expect(t.state.units.u2?.owner).toBe('b');
    expect(leasesOf(t.state)).toEqual([]);
  });

  it('either side ends it; the units come back at the next turn start', () => {
    const { engine, state } = agreed();
    const running = leasesAtTurnStart(state).state;
    const end = engine.applyOrder(running, P('k'), { type: 'realmLeaseEnd', with: 'b' });
    expect(end.ok).toBe(true);
    if (!end.ok) return;
    expect(leasesOf(end.value.state)[0]?.status).toBe('ending');
    expect(end.value.state.units.u2?.owner).toBe('k');
    const next = leasesAtTurnStart(end.value.state);
    expect(next.state.units.u2?.owner).toBe('b');
    expect(leasesOf(next.state)).toEqual([]);
    // An offer not yet in force is withdrawn at once.
    const w = engine.applyOrder(state, P('b'), { type: 'realmLeaseEnd', with: 'k' });
    expect(w.ok && leasesOf(w.value.state)).toEqual([]);
  });

  it('a mercenary stacked with the hirer at the end stays with it until it stands apart (one owner an area)', () => {
    const { engine, state } = agreed();
    const running = leasesAtTurnStart(state).state;
    const ended = engine.applyOrder(running, P('b'), { type: 'realmLeaseEnd', with: 'k' });
    if (!ended.ok) throw new Error(ended.error.code);
    const stacked: GameState = {
      ...ended.value.state,
      units: { ...ended.value.state.units, u1: { ...ended.value.state.units.u1!, area: A('r1c2') } },
    };
    const kept = leasesAtTurnStart(stacked).state;
    expect(kept.units.u2?.owner).toBe('k');
    expect(leasesOf(kept)[0]?.status).toBe('ending');
    const apart: GameState = {
      ...kept,
      units: { ...kept.units, u1: { ...kept.units.u1!, area: A('r0c0') } },
    };
    const home = leasesAtTurnStart(apart).state;
    expect(home.units.u2?.owner).toBe('b');
    expect(leasesOf(home)).toEqual([]);
  });

  it('the hirer may have its mercenaries pillage its city: no tax, the loot to the owner (AMBIG-21)', () => {
    const { engine, ctx, state } = agreed();
    const running = leasesAtTurnStart(state).state;
    const g: GameState = {
      ...running,
      units: { ...running.units, u2: { ...running.units.u2!, area: A('r1c1') } },
      cities: { ...running.cities, r1c1: { owner: P('k'), everOwned: true } },
      neutrals: Object.fromEntries(Object.entries(running.neutrals).filter(([a]) => a !== 'r1c1')),
      step: economicStep(['k']),
    };
    expect(engine.legalOrders(g, P('k'))).toContainEqual({ type: 'realmMercenaryPillage', area: 'r1c1' });
    const r = engine.applyOrder(g, P('k'), { type: 'realmMercenaryPillage', area: A('r1c1') });
    if (!r.ok) throw new Error(r.error.code);
    expect(economyPreview(ctx, r.value.state, P('k'))?.tax).toBe(5); // r0c0 3 + capital 2, not r1c1
    const done = resolveEconomicWithRealms(ctx, r.value.state, (x, id) => collect(ctx, x, id, []));
    expect(done.events).toContainEqual({
      type: 'mercenaryPillage',
      hirer: 'k',
      owner: 'b',
      area: 'r1c1',
      loot: 6,
      digit: 7,
    });
    expect(money(done.state, 'b')).toBe(5 + 6);
    expect(vp(done.state, 'b')).toBe(20 + 5 + 6);
    expect(done.state.markers).toContainEqual({ area: 'r1c1', digit: 7, pillager: 'b', turn: 12 });
    expect(ledgerProblems(realmOf(done.state).sheet)).toEqual([]);
  });

  it('a lease ends at once when the owner is no longer a barbarian; its units turn over (10.1)', () => {
    const { state } = agreed();
    const running = leasesAtTurnStart(state).state;
    const crowned = {
      ...running,
      players: running.players.map((p) =>
        p.id === 'b' ? { ...p, cycle: { ...p.cycle!, stage: 'kingdom' as const } } : p,
      ),
    };
    const t = settleLeases(crowned);
    expect(t.state.units.u2).toMatchObject({ owner: 'b', kind: 'infantry' });
    expect(t.events[0]).toMatchObject({ type: 'leaseDissolved', reason: 'ownerGone', units: [U('u2')] });
  });

  it('a barbarian whose combat units are all leased out founds its kingdom without a leader (10.1)', () => {
    const { engine, state } = agreed();
    const running = leasesAtTurnStart(state).state;
    // b's tribes go at the conversion (10.1); its only combat unit serves k: no unit takes the leader.
    const g: GameState = {
      ...running,
      units: Object.fromEntries(Object.entries(running.units).filter(([, u]) => u.owner !== 'b')),
      cities: {
        ...running.cities,
        r0c3: { owner: P('b'), everOwned: true },
        r2c3: { owner: P('b'), everOwned: true },
      },
      step: { kind: 'administration', queue: [], player: P('b'), choice: { type: 'foundKingdom' }, todo: [] },
    };
    const legal = engine.legalOrders(g, P('b')).find((o) => o.type === 'foundKingdom');
    expect(legal).toMatchObject({ leaderWith: [] });
    expect(engine.timeoutOrders(g, P('b'))[0]).toMatchObject({ type: 'foundKingdom', leaderWith: null });
    const r = engine.applyOrder(g, P('b'), { type: 'foundKingdom', leaderWith: null, capital: A('r0c3') });
    expect(r.ok).toBe(true);
    if (r.ok)
      expect(r.value.events).toContainEqual(expect.objectContaining({ type: 'becameKingdom', leader: null }));
  });
});

describe('13.4 / AMBIG-21: a horde whose every unit serves a hirer', () => {
  function allLeased(lease: boolean) {
    const { engine, state, ctx } = realmScenario({
      turn: 12,
      players: [
        { id: 'k', position: 'GERMAN 1', stage: 'kingdom', money: 10 },
        { id: 'b', position: 'SLAV 1', money: 0, vp: 20 },
      ],
      units: [
        ['k', 'infantry', 'r0c0'],
        ['b', 'barbarianInfantry', 'r1c2'],
      ],
      owners: { r0c0: 'k' },
      capitals: { k: 'r0c0' },
      options: { opt: { mercenaries: true } },
      step: movementOf('k'),
    });
    if (!lease) return { ctx, state: { ...state, units: { u1: state.units.u1! } } as GameState };
    const offer = engine.applyOrder(state, P('b'), {
      type: 'realmLeaseOffer',
      hirer: 'k',
      units: ['u2'],
      price: 0,
    });
    if (!offer.ok) throw new Error(JSON.stringify(offer.error));
    const acc = engine.applyOrder(offer.value.state, P('k'), { type: 'realmLeaseAccept', owner: 'b' });
    if (!acc.ok) throw new Error(JSON.stringify(acc.error));
    return { ctx, state: leasesAtTurnStart(acc.value.state).state };
  }

  it('is not wiped out at its administration: the leased units are still its own', () => {
    const { ctx, state } = allLeased(true);
    expect(state.units.u2?.owner).toBe('k');
    expect(endOfPlayerAdmin(ctx, state, P('b')).events).toEqual([]);
  });

  it('while a horde with no unit at all ends its cycle', () => {
    const { ctx, state } = allLeased(false);
    const events = endOfPlayerAdmin(ctx, state, P('b')).events;
    expect(events).toContainEqual(expect.objectContaining({ type: 'cycleEnded', reason: 'eliminated' }));
  });
});
