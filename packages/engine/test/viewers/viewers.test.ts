/**
 * What each viewer may see, played through the contract: a lease offer between a barbarian and a
 * kingdom, its acceptance and its withdrawal reach the two parties alone (13.4), in the view and in
 * the events; a running lease and its end are open to all; an economic plan stays its maker's
 * until carried out (4.5) and makes no event; a spectator sees what a third player sees. Two
 * viewers' views differ only in the parts the engine names (VIEWER_KEYS).
 */
import { describe, expect, it } from 'vitest';
import { leasesAtTurnStart } from '../../src/diplomacy/mercenaries.ts';
import {
  createEngine,
  type Engine,
  type GameEvent,
  type GameState,
  type PlayerId,
  simplePolicy,
  simSetup,
  VIEWER_KEYS,
} from '../../src/index.ts';
import { P } from '../helpers/scenario.ts';
import { kingdomScenario, realmScenario } from '../realm/fixture.ts';

function leasePosition() {
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
      ['c', 'tribe', 'r2c0'],
    ],
    owners: { r0c0: 'k' },
    capitals: { k: 'r0c0' },
    options: { opt: { mercenaries: true } },
    step: { kind: 'playerTurn', player: P('k'), phase: 'movement', moved: [], split: [] },
  });
}

function play(engine: Engine, state: GameState, actor: string, order: unknown) {
  const r = engine.applyOrder(state, P(actor), order);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

const VIEWERS: (PlayerId | null)[] = [P('k'), P('b'), P('c'), null];
/** Each viewer's share of an order's events, by event type. */
const seen = (engine: Engine, events: readonly GameEvent[]) =>
  Object.fromEntries(VIEWERS.map((v) => [v ?? 'spectator', engine.eventsFor(events, v).map((e) => e.type)]));

describe('what each viewer may see (2.4, 13.4)', () => {
  it('a lease offer reaches the two parties alone: its event and the lease in the view', () => {
    const { engine, state } = leasePosition();
    const offer = play(engine, state, 'b', { type: 'realmLeaseOffer', hirer: 'k', units: ['u2'], price: 5 });
    expect(seen(engine, offer.events)).toEqual({
      k: ['leaseOffered'],
      b: ['leaseOffered'],
      c: [],
      spectator: [],
    });
    const leases = (v: PlayerId | null) => engine.view(offer.state, v).realm?.leases ?? [];
    expect(leases(P('k'))).toHaveLength(1);
    expect(leases(P('b'))).toHaveLength(1);
    expect(leases(P('c'))).toEqual([]);
    expect(leases(null)).toEqual([]);
  });

  it('accepting and withdrawing an offer not yet in force stay between the parties', () => {
    const { engine, state } = leasePosition();
    const offered = play(engine, state, 'b', {
      type: 'realmLeaseOffer',
      hirer: 'k',
      units: ['u2'],
      price: 5,
    });
    const accepted = play(engine, offered.state, 'k', { type: 'realmLeaseAccept', owner: 'b' });
    expect(seen(engine, accepted.events)).toMatchObject({ k: ['leaseAccepted'], c: [], spectator: [] });
    const withdrawn = play(engine, offered.state, 'b', { type: 'realmLeaseEnd', with: 'k' });
    expect(withdrawn.events).toEqual([
      { type: 'leaseEnded', owner: 'b', hirer: 'k', by: 'b', atTurnStart: false },
    ]);
    expect(seen(engine, withdrawn.events)).toEqual({
      k: ['leaseEnded'],
      b: ['leaseEnded'],
      c: [],
      spectator: [],
    });
  });

  it('a running lease and its end are open to every viewer (13.4: the units change hands on the board)', () => {
    const { engine, state } = leasePosition();
    const offered = play(engine, state, 'b', {
      type: 'realmLeaseOffer',
      hirer: 'k',
      units: ['u2'],
      price: 5,
    });
    const accepted = play(engine, offered.state, 'k', { type: 'realmLeaseAccept', owner: 'b' });
    const started = leasesAtTurnStart(accepted.state);
    expect(seen(engine, started.events)).toMatchObject({ c: ['leaseStarted'], spectator: ['leaseStarted'] });
    expect(engine.view(started.state, null).realm?.leases).toHaveLength(1);
    const ended = play(engine, started.state, 'k', { type: 'realmLeaseEnd', with: 'b' });
    expect(seen(engine, ended.events)).toMatchObject({ c: ['leaseEnded'], spectator: ['leaseEnded'] });
    // Nothing hidden: the viewer gets the order's own list, not a copy.
    expect(engine.eventsFor(ended.events, null)).toBe(ended.events);
  });

  it("an economic plan is its maker's alone until carried out, and makes no event (4.5)", () => {
    const { engine, state } = kingdomScenario();
    const plan = { disband: [], garrisonDisband: [], purchases: [], adminPercent: 20 };
    const r = play(engine, state, 'k', { type: 'realmPlan', plan });
    expect(r.events).toEqual([]);
    expect(engine.view(r.state, P('k')).realm?.players.k?.plan).toEqual(plan);
    expect(engine.view(r.state, P('b')).realm?.players.k?.plan).toBeNull();
    expect(engine.view(r.state, null).realm?.players.k?.plan).toBeNull();
    // A spectator sees exactly what another player sees of the game.
    const { viewer: _b, ...third } = engine.view(r.state, P('b'));
    const { viewer: _s, ...spectator } = engine.view(r.state, null);
    expect(spectator).toEqual(third);
  });
});

describe('what differs between viewers (2.4: all bookkeeping is open)', () => {
  it('two views of one state differ only under VIEWER_KEYS, which viewerPart gives as the view holds them', () => {
    const engine = createEngine();
    const created = engine.createGame(simSetup('viewer-keys', 3));
    if (!created.ok) throw new Error(created.error.code);
    const policy = simplePolicy('viewer-keys');
    const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
    const outside = (v: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(v).filter(([k]) => !(VIEWER_KEYS as readonly string[]).includes(k)));
    let s = created.value;
    let differed = 0;
    for (let i = 0; i < 200; i++) {
      const spectators = plain(engine.view(s, null));
      for (const viewer of [...s.players.map((p) => p.id), null]) {
        const view = engine.view(s, viewer);
        expect(outside(plain(view))).toEqual(outside(spectators));
        const part = engine.viewerPart(s, viewer);
        expect(Object.keys(part).sort()).toEqual([...VIEWER_KEYS].sort());
        for (const k of VIEWER_KEYS) expect(part[k]).toBe(view[k]);
        if (JSON.stringify(view.realm) !== JSON.stringify(spectators.realm)) differed++;
      }
      const p = engine.waitingFor(s)[0]!;
      const r = engine.applyOrder(s, p, policy.choose(engine, s, p) ?? engine.timeoutOrders(s, p)[0]);
      if (!r.ok) throw new Error(r.error.code);
      s = r.value.state;
    }
    // The walk met positions where a seat sees more of the realm than spectators (its own plan).
    expect(differed).toBeGreaterThan(0);
  });
});
