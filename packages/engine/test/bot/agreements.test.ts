/**
 * The strong bot's agreements (12, 13.3, 13.4, 13.6, 13.7), played through the engine's public
 * contract: every order the bot gives is applied by `engine.applyOrder`, and what it agreed is
 * checked in the engine's own events (the lease starts with its price paid, the bid is paid, the
 * ransom is paid) and in what it refrains from (a payer of tribute spared, a lease never ended).
 */
import { describe, expect, it } from 'vitest';
import { createBot } from '../../src/bot/levels.ts';
import type { Engine, GameEvent, GameState, Order, PlayerId, Policy, Step } from '../../src/index.ts';
import { simplePolicy } from '../../src/sim/policy.ts';
import { gridMap } from '../helpers/fixture-map.ts';
import { A, P, phase, scenario, U } from '../helpers/scenario.ts';
import { economicStep, realmScenario } from '../realm/fixture.ts';

const money = (g: GameState, id: string) => g.players.find((p) => p.id === id)!.money;

function apply(engine: Engine, state: GameState, who: string, order: Order | null) {
  if (!order) throw new Error(`no order from ${who}`);
  const r = engine.applyOrder(state, P(who), order);
  if (!r.ok) throw new Error(`${who} ${JSON.stringify(order)}: ${r.error.code}`);
  return r.value;
}

/** Plays the seats' policies until `done` sees the events, or `limit` orders; returns what was given. */
function play(
  engine: Engine,
  start: GameState,
  bots: Record<string, Policy>,
  done: (events: readonly GameEvent[], state: GameState) => boolean,
  limit = 400,
) {
  let state = start;
  const events: GameEvent[] = [];
  const given: { who: string; order: Order }[] = [];
  for (let n = 0; n < limit && !done(events, state); n++) {
    const who = engine.waitingFor(state)[0];
    if (!who) break;
    const order = bots[who]!.choose(engine, state, who) ?? engine.timeoutOrders(state, who)[0]!;
    const r = apply(engine, state, who, order);
    given.push({ who, order });
    events.push(...r.events);
    state = r.state;
  }
  return { state, events, given };
}

describe('strong bot: 13.7 tribute', () => {
  // k: a kingdom with an empty city r2c1 (tax 1); b: a barbarian whose infantry stands next to it.
  const threatened = (turn = 12, step: Step = phase('b', 'movement')) =>
    realmScenario({
      turn,
      players: [
        { id: 'k', position: 'GERMAN 1', stage: 'kingdom', money: 20 },
        { id: 'b', position: 'SLAV 1', money: 0, vp: 10 },
      ],
      units: [
        ['k', 'infantry', 'r0c0'],
        ['k', 'cavalry', 'r1c1'],
        ['b', 'barbarianInfantry', 'r2c0'],
      ],
      owners: { r0c0: 'k', r1c1: 'k', r2c1: 'k' },
      capitals: { k: 'r0c0' },
      options: { opt: { tribute: true } },
      step,
    });

  it('pays for a city under threat, up to its tax, while the receiver moves; once a turn', () => {
    const { engine, state } = threatened();
    const k = createBot('strong', 'tribute-k');
    const order = k.aside!(engine, state, P('k'));
    // The city's tax (1) bounds the amount, below the engine's 5-a-turn cap.
    expect(order).toEqual({ type: 'realmTribute', to: 'b', amount: 1 });
    const r = apply(engine, state, 'k', order);
    expect(r.events).toContainEqual({ type: 'tributePaid', from: 'k', to: 'b', amount: 1 });
    expect(money(r.state, 'k')).toBe(19);
    expect(k.aside!(engine, r.state, P('k'))).toBeNull();
  });

  it('as the receiver it spares the payer that turn: no move into its cities', () => {
    const { engine, state } = threatened();
    const unpaid = createBot('strong', 'tribute-b').choose(engine, state, P('b'));
    expect(unpaid).toMatchObject({ type: 'move', unit: 'u3' });
    expect((unpaid as Extract<Order, { type: 'move' }>).path.at(-1)).toBe('r2c1');
    const paid = apply(engine, state, 'k', { type: 'realmTribute', to: P('b'), amount: 1 }).state;
    const spared = createBot('strong', 'tribute-b').choose(engine, paid, P('b'));
    const kCities = ['r0c0', 'r1c1', 'r2c1'];
    if (spared?.type === 'move') expect(kCities).not.toContain(spared.path.at(-1));
  });

  it('never pays again a receiver that took a city it was paid for', () => {
    const { engine, state } = threatened();
    const k = createBot('strong', 'tribute-k');
    const paid = apply(engine, state, 'k', k.aside!(engine, state, P('k'))).state;
    const walkedIn = apply(engine, paid, 'b', { type: 'move', unit: U('u3'), path: [A('r2c1')] }).state;
    expect(k.aside!(engine, walkedIn, P('k'))).toBeNull();
    const next = threatened(13).state;
    expect(k.aside!(engine, next, P('k'))).toBeNull();
    expect(createBot('strong', 'tribute-k2').aside!(engine, next, P('k'))).toMatchObject({
      type: 'realmTribute',
    });
  });
});

describe('strong bot: 13.4 mercenaries', () => {
  it('a kingdom accepts a fair offer, keeps the price back from its plan, and the lease starts paid', () => {
    const { engine, state } = realmScenario({
      turn: 12,
      players: [
        { id: 'k', position: 'GERMAN 1', stage: 'kingdom', money: 10 },
        { id: 'b', position: 'SLAV 1', money: 0, vp: 20 },
      ],
      units: [
        ['k', 'infantry', 'r0c0'],
        ['b', 'barbarianInfantry', 'r1c2'],
        ['b', 'tribe', 'r2c2'],
        ['b', 'barbarianHorse', 'r2c3'],
      ],
      owners: { r0c0: 'k' },
      capitals: { k: 'r0c0' },
      options: { opt: { mercenaries: true } },
      step: phase('k', 'movement'),
    });
    const offered = apply(engine, state, 'b', {
      type: 'realmLeaseOffer',
      hirer: P('k'),
      units: [U('u2'), U('u4')],
      price: 5,
    }).state;
    const bots = { k: createBot('strong', 'lease-k'), b: simplePolicy('lease-b') };
    const accept = bots.k.choose(engine, offered, P('k'));
    expect(accept).toEqual({ type: 'realmLeaseAccept', owner: 'b' });
    const accepted = apply(engine, offered, 'k', accept).state;
    const r = play(engine, accepted, bots, (events) =>
      events.some((e) => e.type === 'leaseStarted' || e.type === 'leaseLapsed'),
    );
    expect(r.events).toContainEqual({
      type: 'leaseStarted',
      owner: 'b',
      hirer: 'k',
      units: ['u2', 'u4'],
      price: 5,
    });
    // Honoured: the plan left the price in the treasury, and the lease is never ended early.
    const plan = r.given.find((g) => g.who === 'k' && g.order.type === 'realmPlan');
    expect(plan).toBeDefined();
    const more = play(engine, r.state, bots, () => false, 300);
    expect(
      [...r.given, ...more.given].filter((g) => g.who === 'k' && g.order.type === 'realmLeaseEnd'),
    ).toEqual([]);
  }, 60_000);

  it('a barbarian with no city within reach offers its combat units to the realm that can pay', () => {
    // One row of ten areas: the horde at the west end, the only cities (the kingdom's) at the east.
    const { engine, state } = scenario({
      map: gridMap({ rows: 1, cols: 10, cities: { r0c9: { tax: 3 }, r0c8: { tax: 2 } } }),
      turn: 12,
      players: [
        { id: 'b', position: 'SLAV 1', money: 0, vp: 5 },
        { id: 'k', position: 'GERMAN 1', stage: 'kingdom', money: 7 },
      ],
      units: [
        ['b', 'barbarianInfantry', 'r0c0'],
        ['b', 'tribe', 'r0c1'],
        ['k', 'infantry', 'r0c9'],
      ],
      options: { opt: { mercenaries: true } },
      step: phase('b', 'movement'),
    });
    const owned = {
      ...state,
      cities: { r0c9: { owner: P('k'), everOwned: true }, r0c8: { owner: P('k'), everOwned: true } },
      neutrals: {},
    };
    const order = createBot('strong', 'offer-b').choose(engine, owned, P('b'));
    // The highest of the engine's prices the hirer can pay (5 of 0/2/5/10 with 7 in its treasury).
    expect(order).toEqual({ type: 'realmLeaseOffer', hirer: 'k', units: ['u1'], price: 5 });
    const r = apply(engine, owned, 'b', order);
    expect(r.events).toContainEqual({
      type: 'leaseOffered',
      owner: 'b',
      hirer: 'k',
      units: ['u1'],
      price: 5,
    });
    // One standing offer: no second one while it stands.
    expect(createBot('strong', 'offer-b').choose(engine, r.state, P('b'))?.type).not.toBe('realmLeaseOffer');
  });
});

describe('strong bot: 13.3 auctions', () => {
  it('bids the minimum for an auctioned unit from the money left, and pays it when it wins', () => {
    const { engine, state } = realmScenario({
      turn: 20,
      players: [
        { id: 'e', position: 'GERMAN 1', stage: 'empire', money: 0 },
        { id: 'b', position: 'SLAV 1', money: 9, vp: 30 },
      ],
      units: [
        ['e', 'elite', 'r1c1'],
        ['e', 'infantry', 'r0c0'],
        ['e', 'garrison', 'r2c1'],
        ['b', 'tribe', 'r0c3'],
      ],
      owners: { r0c0: 'e', r2c1: 'e' },
      capitals: { e: 'r0c0' },
      options: { opt: { auction: true } },
      step: economicStep(['e', 'b']),
    });
    const bots = { e: simplePolicy('auction-e'), b: createBot('strong', 'auction-b') };
    const bid = bots.b.choose(engine, state, P('b'));
    // The engine's minimum bid for an elite is its upkeep (AMBIG-22): 5.
    expect(bid).toEqual({ type: 'realmBid', auctioneer: 'e', kind: 'elite', amount: 5 });
    const r = play(engine, state, bots, (events) => events.some((e) => e.type === 'ledgerRow'));
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'unitAuctioned', winner: 'b', bid: 5 }));
    expect(money(r.state, 'b')).toBe(4);
  });
});

describe('strong bot: 13.6 ransoms', () => {
  it('the captor asks what the owner can pay and never executes; the owner pays', () => {
    const { engine, state } = realmScenario({
      turn: 12,
      players: [
        { id: 'k', position: 'GERMAN 1', stage: 'kingdom', money: 10 },
        { id: 'e', position: 'SLAV 1', money: 0, vp: 30 },
      ],
      units: [
        ['k', 'leader', 'r1c2'],
        ['k', 'infantry', 'r0c0'],
        ['e', 'barbarianHorse', 'r1c3'],
        ['e', 'barbarianInfantry', 'r2c2'],
      ],
      owners: { r0c0: 'k' },
      capitals: { k: 'r0c0' },
      options: { opt: { optionalLeaders: true } },
      step: phase('e', 'movement'),
    });
    const captured = apply(engine, state, 'e', { type: 'move', unit: U('u3'), path: [A('r1c2'), A('r0c2')] });
    expect(captured.events.some((e) => e.type === 'leaderCaptured')).toBe(true);
    const bots = { k: createBot('strong', 'ransom-k'), e: createBot('strong', 'ransom-e') };
    const ask = bots.e.choose(engine, captured.state, P('e'));
    // Treasuries are open (2.4): k holds 10, the largest demand the engine offers within it.
    expect(ask).toEqual({ type: 'realmRansomOffer', leader: 'u1', amount: 10 });
    const asked = apply(engine, captured.state, 'e', ask).state;
    const r = play(engine, asked, bots, (events) => events.some((e) => e.type === 'ransomPaid'));
    expect(r.events).toContainEqual(expect.objectContaining({ type: 'ransomPaid', owner: 'k', captor: 'e' }));
    expect(r.given.filter((g) => g.order.type === 'realmExecute')).toEqual([]);
  });
});

export type { PlayerId };
