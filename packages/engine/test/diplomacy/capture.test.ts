/**
 * 13.6 optional leaders: capture (AMBIG-53, even passing through), ransom offered and paid (income and
 * VP of the captor, 14.3.1), execution in the captor's own turn, a diplomat released at once for 1,
 * freedom when the holder falls to the leader's side, and a leader outliving its stack.
 */
import { describe, expect, it } from 'vitest';
import { leadersLeftBehind, leadersOverrun } from '../../src/combat/leaders-in-combat.ts';
import { prisonersOf, settlePrisoners } from '../../src/diplomacy/leader-capture.ts';
import type { GameState, Step } from '../../src/index.ts';
import { patchRealmPlayer } from '../../src/model/realm.ts';
import { A, P, U } from '../helpers/scenario.ts';
import { realmScenario } from '../realm/fixture.ts';

const turnOf = (player: string, phase: 'movement' | 'combat' = 'movement'): Step => ({
  kind: 'playerTurn',
  player: P(player),
  phase,
  moved: [],
  split: [],
});

function position(step: Step = turnOf('e')) {
  // k: a kingdom whose leader u1 stands alone in r1c2; e: a barbarian horse next to it.
  return realmScenario({
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
    step,
  });
}

const money = (g: GameState, id: string) => g.players.find((p) => p.id === id)!.money;
const vp = (g: GameState, id: string) => g.players.find((p) => p.id === id)!.cycle!.vp;

function captured() {
  const { engine, state } = position();
  const r = engine.applyOrder(state, P('e'), { type: 'move', unit: U('u3'), path: [A('r1c2'), A('r0c2')] });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return { engine, state: r.value.state, events: r.value.events };
}

describe('13.6 capture and ransom', () => {
  it('a unit passing through a lone leader captures it and holds it (AMBIG-53)', () => {
    const { state, events } = captured();
    expect(state.units.u1).toBeUndefined();
    expect(prisonersOf(state)).toEqual([
      { leader: 'u1', owner: 'k', captor: 'e', holder: 'u3', area: 'r0c2', turn: 12 },
    ]);
    expect(events).toContainEqual({
      type: 'leaderCaptured',
      leader: 'u1',
      owner: 'k',
      captor: 'e',
      holder: 'u3',
      area: 'r1c2',
    });
  });

  it('the captor demands a ransom; the owner pays it: income and VP of the captor (14.3.1)', () => {
    const { engine, state } = captured();
    expect(engine.legalOrders(state, P('e'))).toContainEqual({
      type: 'realmRansomOffer',
      leader: 'u1',
      amount: 5,
    });
    expect(engine.legalOrders(state, P('k')).some((o) => o.type === 'realmRansomAccept')).toBe(false);
    const o = engine.applyOrder(state, P('e'), { type: 'realmRansomOffer', leader: U('u1'), amount: 5 });
    expect(o.ok).toBe(true);
    if (!o.ok) return;
    expect(engine.legalOrders(o.value.state, P('k'))).toContainEqual({
      type: 'realmRansomAccept',
      leader: 'u1',
    });
    const paid = engine.applyOrder(o.value.state, P('k'), { type: 'realmRansomAccept', leader: U('u1') });
    expect(paid.ok).toBe(true);
    if (!paid.ok) return;
    const s = paid.value.state;
    expect(money(s, 'k')).toBe(5);
    expect(money(s, 'e')).toBe(5);
    expect(vp(s, 'e')).toBe(35);
    // Back on the board like a new leader (10.2), with the unit in its capital's area.
    expect(s.units.u1).toMatchObject({ owner: 'k', kind: 'leader', area: 'r0c0' });
    expect(prisonersOf(s)).toEqual([]);
  });

  it('only the captor executes, and only in its own player turn', () => {
    const { engine, state } = captured();
    expect(engine.applyOrder(state, P('k'), { type: 'realmExecute', leader: U('u1') }).ok).toBe(false);
    const x = engine.applyOrder(state, P('e'), { type: 'realmExecute', leader: U('u1') });
    expect(x.ok).toBe(true);
    if (!x.ok) return;
    expect(prisonersOf(x.value.state)).toEqual([]);
    expect(x.value.events).toContainEqual({ type: 'leaderExecuted', leader: 'u1', owner: 'k', captor: 'e' });
    // In another player's turn the captor may not.
    const other = { ...state, step: turnOf('k') };
    expect(engine.applyOrder(other, P('e'), { type: 'realmExecute', leader: U('u1') }).ok).toBe(false);
  });

  it('a diplomat is released at once for 1 (C.5.b)', () => {
    const { engine, state } = position();
    const g = patchRealmPlayer(state, P('k'), { leaderType: 'diplomat' });
    const r = engine.applyOrder(g, P('e'), { type: 'move', unit: U('u3'), path: [A('r1c2'), A('r0c2')] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(prisonersOf(r.value.state)).toEqual([]);
    expect(money(r.value.state, 'e')).toBe(1);
    expect(r.value.state.units.u1).toMatchObject({ area: 'r0c0' });
    expect(r.value.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['leaderCaptured', 'ransomPaid']),
    );
  });

  it('the prisoner goes free when its holder is eliminated in a combat against the owner', () => {
    const { state } = captured();
    const without = {
      ...state,
      units: Object.fromEntries(Object.entries(state.units).filter(([id]) => id !== 'u3')),
    };
    const killed = [{ type: 'combatUnitsEliminated', player: 'e', units: ['u3'], area: 'r0c2', cause: 'DE' }];
    const freed = settlePrisoners(without, killed, P('k'));
    expect(prisonersOf(freed.state)).toEqual([]);
    expect(freed.state.units.u1).toMatchObject({ owner: 'k', area: 'r0c0' });
    expect(freed.events[0]).toMatchObject({ type: 'leaderFreed', leader: 'u1', area: 'r0c0' });
  });

  it('a holder lost otherwise hands the prisoner to another captor unit in its area', () => {
    const { state } = captured();
    const moved = { ...state, units: { ...state.units, u4: { ...state.units.u4!, area: A('r0c2') } } };
    const gone = {
      ...moved,
      units: Object.fromEntries(Object.entries(moved.units).filter(([id]) => id !== 'u3')),
    };
    const t = settlePrisoners(gone, [], null);
    expect(prisonersOf(t.state)[0]).toMatchObject({ leader: 'u1', holder: 'u4' });
  });

  it("the prisoner follows its holder: to its new master, or free when it serves the leader's side (13.4)", () => {
    const { state } = captured();
    const lent = (to: string): GameState => ({
      ...state,
      units: { ...state.units, u3: { ...state.units.u3!, owner: P(to) } },
    });
    expect(prisonersOf(settlePrisoners(lent('x'), [], null).state)[0]).toMatchObject({
      captor: 'x',
      holder: 'u3',
    });
    const home = settlePrisoners(lent('k'), [], null);
    expect(prisonersOf(home.state)).toEqual([]);
    expect(home.events[0]).toMatchObject({ type: 'leaderFreed', leader: 'u1' });
  });

  it('the captor may hand the prisoner to another unit in the same area in its movement phase', () => {
    const { engine, state } = captured();
    const together = { ...state, units: { ...state.units, u4: { ...state.units.u4!, area: A('r0c2') } } };
    expect(engine.legalOrders(together, P('e'))).toContainEqual({
      type: 'realmPrisonerMove',
      leader: 'u1',
      holder: 'u4',
    });
    const r = engine.applyOrder(together, P('e'), {
      type: 'realmPrisonerMove',
      leader: U('u1'),
      holder: U('u4'),
    });
    expect(r.ok).toBe(true);
    if (r.ok) expect(prisonersOf(r.value.state)[0]?.holder).toBe('u4');
  });

  it('a unit retreating through the lone leader captures it on the way (combat hook, AMBIG-53)', () => {
    const { state } = position(turnOf('e', 'combat'));
    // u3 passes r1c2 on a retreat ending in r0c2: combat names it as the captor.
    const passer = { ...state.units.u3!, area: A('r0c2') };
    const g: GameState = { ...state, units: { ...state.units, u3: passer } };
    const t = leadersOverrun(g, A('r1c2'), P('e'), passer);
    expect(t.state.units.u1).toBeUndefined();
    expect(prisonersOf(t.state)[0]).toMatchObject({ leader: 'u1', captor: 'e', holder: 'u3' });
    expect(t.events).toEqual([
      { type: 'combatLeaderCaptured', unit: 'u1', area: 'r1c2', captor: 'e', holder: 'u3' },
    ]);
    // Without the option the leader dies (10.2).
    const plain = { ...g, options: { ...g.options, opt: { ...g.options.opt, optionalLeaders: false } } };
    expect(leadersOverrun(plain, A('r1c2'), P('e'), passer).events[0]?.type).toBe('combatLeaderEliminated');
  });

  it('a leader whose stack dies stays on the board alone (not eliminated)', () => {
    const { state } = position();
    const t = leadersLeftBehind(state, A('r1c2'), P('k'), null);
    expect(t.state.units.u1).toBeDefined();
    expect(t.events).toEqual([]);
  });

  it('a prisoner of a kingdom that became an empire is gone, unless dynastic (10.2, 11.1)', () => {
    const { state } = captured();
    const empire = {
      ...state,
      players: state.players.map((p) =>
        p.id === 'k' ? { ...p, cycle: { ...p.cycle!, stage: 'empire' as const } } : p,
      ),
    };
    expect(prisonersOf(settlePrisoners(empire, [], null).state)).toEqual([]);
    const dynastic = patchRealmPlayer(empire, P('k'), { leaderType: 'dynastic' });
    expect(prisonersOf(settlePrisoners(dynastic, [], null).state)).toHaveLength(1);
  });
});
