/**
 * 8.2 naval landings (AMBIG-16, AMBIG-17), 8.3 ship retreats and 8.4 capture in combat, played
 * through the engine from the movement phase to the end of the combat phase.
 */
import { describe, expect, it } from 'vitest';
import type { GameState, Order } from '../../src/index.ts';
import { landingsOf } from '../../src/naval/landing.ts';
import { diceFor } from '../combat-phase/fixture.ts';
import { A, P, phase, scenario, U } from '../helpers/scenario.ts';
import { NAVAL_MAP, navalKingdoms } from './fixture.ts';

type Spec = Parameters<typeof scenario>[0];

/** a's ship u1 (+ infantry u2) in west; b's units in east (reached from the sea Nord). */
function landingGame(defenders: Spec['units'], dice: number[], stageB: 'kingdom' | 'empire' = 'kingdom') {
  return scenario({
    map: NAVAL_MAP,
    players: [
      { id: 'a', position: 'GERMAN 1', stage: 'kingdom' },
      { id: 'b', position: 'SLAV 1', stage: stageB },
    ],
    units: [['a', 'ship', 'west'], ['a', 'infantry', 'west'], ...(defenders ?? [])],
    step: phase('a', 'movement'),
    dice,
    neutrals: {},
  });
}

/** The combat orders among a player's legal orders (standing realm choices left out). */
const combatLegal = (engine: ReturnType<typeof scenario>['engine'], state: GameState, who: string) =>
  engine.legalOrders(state, P(who)).filter((o) => o.type.startsWith('combat'));

function run(engine: ReturnType<typeof scenario>['engine'], state: GameState, who: string, order: unknown) {
  const r = engine.applyOrder(state, P(who), order as Order);
  if (!r.ok) throw new Error(`${JSON.stringify(order)}: ${r.error.code} ${JSON.stringify(r.error.params)}`);
  return r.value;
}

const land = { type: 'shipMove', ship: 'u1', path: ['nord', 'east'], cargo: ['u2'] };
const attack = { type: 'combatAttack', target: 'east', attackers: ['u1', 'u2'] };

/** Declare the landing, end the movement phase: the game stops in a's combat phase. */
function declared(defenders: Spec['units'], dice: number[], stageB: 'kingdom' | 'empire' = 'kingdom') {
  const { engine, state } = landingGame(defenders, [4, ...dice], stageB);
  const moved = run(engine, state, 'a', land);
  const inCombat = run(engine, moved.state, 'a', { type: 'endPhase' });
  return { engine, moved, state: inCombat.state };
}

describe('8.2 naval landings', () => {
  it('is a ship move into an unfriendly coastal area from a sea; the force waits at sea for its combat', () => {
    const { engine, state } = landingGame([['b', 'bow', 'east']], [4]);
    const legal = engine.legalOrders(state, P('a'));
    const landing = legal.find(
      (o) => o.type === 'shipMove' && o.path.at(-1) === 'east' && o.cargo.length === 1 && o.cargo[0] === 'u2',
    );
    expect(landing).toMatchObject({ landing: true, path: ['nord', 'east'] });
    const moved = run(engine, state, 'a', land);
    expect(moved.events.map((e) => e.type)).toEqual(['shipSinkingRolled', 'navalLandingDeclared']);
    expect([moved.state.units.u1?.area, moved.state.units.u2?.area]).toEqual(['nord', 'nord']);
    expect(landingsOf(moved.state)).toEqual([
      { player: 'a', target: 'east', sea: 'nord', ship: 'u1', cargo: ['u2'] },
    ]);
  });

  it('the combat phase is entered and the compulsory attack is owed before combatDone (8.2)', () => {
    const { engine, state } = declared([['b', 'bow', 'east']], []);
    expect(state.step).toMatchObject({ kind: 'playerTurn', player: 'a', phase: 'combat' });
    const legal = combatLegal(engine, state, 'a');
    expect(legal.map((o) => o.type)).toEqual(['combatAttack']);
    // Carried unit halved (4 → 2), ship not (1): 3 against the bow's 2 is the 3-2 column.
    expect(legal[0]).toMatchObject({
      landing: true,
      target: 'east',
      eligible: [
        { unit: 'u1', halved: false },
        { unit: 'u2', halved: true },
      ],
      choices: [{ attackers: ['u1', 'u2'], odds: '3-2' }],
    });
    expect(engine.applyOrder(state, P('a'), { type: 'combatDone' }).ok).toBe(false);
    const partial = engine.applyOrder(state, P('a'), { ...attack, attackers: ['u2'] } as Order);
    expect(!partial.ok && partial.error.code).toBe('combat/landing_owed');
    // At a missed deadline the landing force attacks alone.
    expect(engine.timeoutOrders(state, P('a'))[0]).toEqual(attack);
  });

  it('DE: the defender is gone and the force lands in the target', () => {
    const { engine, state } = declared([['b', 'bow', 'east']], diceFor('3-2', 'DE'));
    const r = run(engine, state, 'a', attack);
    expect(r.events.map((e) => e.type)).toContain('navalLanded');
    expect([r.state.units.u1?.area, r.state.units.u2?.area]).toEqual(['east', 'east']);
    expect(r.state.units.u3).toBeUndefined();
    expect(landingsOf(r.state)).toEqual([]);
  });

  it('DR: the defender retreats, then the force lands', () => {
    const { engine, state } = declared([['b', 'bow', 'east']], diceFor('3-2', 'DR1'));
    let r = run(engine, state, 'a', attack);
    expect(r.state.units.u1?.area).toBe('nord');
    r = run(engine, r.state, 'b', { type: 'combatRetreat', unit: 'u3', path: ['west'] });
    expect([r.state.units.u1?.area, r.state.units.u2?.area, r.state.units.u3?.area]).toEqual([
      'east',
      'east',
      'west',
    ]);
    // The landing was their advance: they do not pursue as well.
    expect(combatLegal(engine, r.state, 'a').map((o) => o.type)).toEqual(['combatDone']);
  });

  it('AR1: the carried unit is eliminated and the ship goes back across the sea (1d6, sinks on 1)', () => {
    const ar1 = diceFor('3-2', 'AR1');
    const afloat = declared([['b', 'bow', 'east']], [...ar1, 3]);
    let r = run(afloat.engine, afloat.state, 'a', attack);
    expect(r.events).toContainEqual(
      expect.objectContaining({ type: 'navalLandingFailed', units: ['u1', 'u2'] }),
    );
    expect(r.state.units.u2).toBeUndefined();
    expect(r.state.units.u1?.area).toBe('nord');
    // Two shores of Nord besides the target: the owner chooses.
    const retreat = afloat.engine.legalOrders(r.state, P('a')).find((o) => o.type === 'combatRetreat');
    expect(retreat).toMatchObject({ unit: 'u1', paths: [['bay'], ['west']] });
    r = run(afloat.engine, r.state, 'a', { type: 'combatRetreat', unit: 'u1', path: ['bay'] });
    expect(r.events).toContainEqual(
      expect.objectContaining({ type: 'combatShipSinkingRolled', die: 3, sunk: false }),
    );
    expect(r.state.units.u1?.area).toBe('bay');
    const sunk = declared([['b', 'bow', 'east']], [...ar1, 1]);
    const s1 = run(sunk.engine, sunk.state, 'a', attack);
    const s2 = run(sunk.engine, s1.state, 'a', { type: 'combatRetreat', unit: 'u1', path: ['west'] });
    expect(s2.state.units.u1).toBeUndefined();
  });

  it('AMBIG-17: an elite that refuses and an attacker who aborts leave the area held: AR1 for the force', () => {
    const { engine, state } = declared([['b', 'elite', 'east']], [...diceFor('1-2', 'DR1'), 5], 'empire');
    // 3 (ship 1 + halved 4) against 5: the 1-2 column.
    let r = run(engine, state, 'a', attack);
    r = run(engine, r.state, 'b', { type: 'combatEliteChoice', refuse: true });
    r = run(engine, r.state, 'a', { type: 'combatReroll', abort: true });
    expect(r.events.map((e) => e.type)).toContain('navalLandingFailed');
    expect(r.state.units.u2).toBeUndefined();
    const retreat = engine.legalOrders(r.state, P('a')).find((o) => o.type === 'combatRetreat');
    expect(retreat).toMatchObject({ unit: 'u1' });
    r = run(engine, r.state, 'a', { type: 'combatRetreat', unit: 'u1', path: ['west'] });
    expect(r.state.units.u1?.area).toBe('west');
    expect(r.state.units.u3?.area).toBe('east');
  });

  it('a landing into an area with a ship stops that ship intercepting for the phase (8.2)', () => {
    const { engine, state } = navalKingdoms({
      units: [
        ['a', 'ship', 'west'], // u1 lands on east
        ['b', 'ship', 'east'], // u2 could intercept in Nord
        ['a', 'ship', 'west'], // u3 sails Nord → bay afterwards
      ],
      step: phase('a', 'movement'),
      dice: [4, 4],
      neutrals: {},
    });
    const first = run(engine, state, 'a', {
      type: 'shipMove',
      ship: 'u1',
      path: ['nord', 'east'],
      cargo: [],
    });
    expect(first.events.map((e) => e.type)).not.toContain('shipIntercepted');
    const second = run(engine, first.state, 'a', {
      type: 'shipMove',
      ship: 'u3',
      path: ['nord', 'bay'],
      cargo: [],
    });
    expect(second.events.map((e) => e.type)).not.toContain('shipIntercepted');
    expect(second.state.units.u3?.area).toBe('bay');
  });

  it('one or two ships, or one ship with its carried unit: a third piece is refused', () => {
    const { engine, state } = navalKingdoms({
      units: [
        ['a', 'ship', 'west'], // u1
        ['a', 'infantry', 'west'], // u2
        ['a', 'ship', 'bay'], // u3
        ['b', 'bow', 'east'], // u4
      ],
      step: phase('a', 'movement'),
      dice: [4, 4],
      neutrals: {},
    });
    const first = run(engine, state, 'a', land);
    const second = engine.applyOrder(first.state, P('a'), {
      type: 'shipMove',
      ship: U('u3'),
      path: [A('nord'), A('east')],
      cargo: [],
    });
    expect(!second.ok && second.error.code).toBe('order/invalid');
  });
});

describe('8.4 capture of a lone ship in combat (AMBIG-59)', () => {
  it('DE against a lone ship: the attacker may capture it; one attacking unit must then advance', () => {
    const { engine, state } = navalKingdoms({
      units: [
        ['a', 'infantry', 'west'], // u1
        ['b', 'ship', 'east'], // u2
      ],
      step: phase('a', 'combat'),
      dice: diceFor('4-1', 'DE'),
      neutrals: {},
    });
    let r = run(engine, state, 'a', { type: 'combatAttack', target: 'east', attackers: ['u1'] });
    const legal = combatLegal(engine, r.state, 'a');
    expect(legal).toEqual([
      { type: 'combatCapture', capture: false, ship: 'u2' },
      { type: 'combatCapture', capture: true, ship: 'u2' },
    ]);
    r = run(engine, r.state, 'a', { type: 'combatCapture', capture: true });
    const captured = r.events.find((e) => e.type === 'combatShipCaptured');
    expect(captured).toMatchObject({ player: 'a', from: 'b', ship: 'u2', area: 'east' });
    const id = captured?.type === 'combatShipCaptured' ? captured.captured : U('none');
    expect(r.state.units[id]).toMatchObject({ owner: 'a', kind: 'ship', area: 'east' });
    // The advance is owed: no combatStop until one unit went in.
    const owed = combatLegal(engine, r.state, 'a');
    expect(owed.map((o) => o.type)).toEqual(['combatAdvance']);
    r = run(engine, r.state, 'a', { type: 'combatAdvance', unit: 'u1', to: 'east' });
    expect(r.state.units.u1?.area).toBe('east');
  });

  it('a ship next to an enemy on a shared sea opens the combat phase (AMBIG-16) and may capture', () => {
    const { engine, state } = navalKingdoms({
      units: [
        ['a', 'ship', 'west'],
        ['b', 'ship', 'east'],
      ],
      step: phase('a', 'movement'),
      dice: diceFor('1-1', 'DR1'),
      neutrals: {},
    });
    const r = run(engine, state, 'a', { type: 'endPhase' });
    expect(r.state.step).toMatchObject({ player: 'a', phase: 'combat' });
    expect(combatLegal(engine, r.state, 'a').map((o) => o.type)).toEqual(['combatAttack', 'combatDone']);
  });

  it('declining the capture eliminates the ship as an ordinary DE', () => {
    const { engine, state } = navalKingdoms({
      units: [
        ['a', 'infantry', 'west'],
        ['b', 'ship', 'east'],
      ],
      step: phase('a', 'combat'),
      dice: diceFor('4-1', 'DE'),
      neutrals: {},
    });
    let r = run(engine, state, 'a', { type: 'combatAttack', target: 'east', attackers: ['u1'] });
    r = run(engine, r.state, 'a', { type: 'combatCapture', capture: false });
    expect(r.state.units.u2).toBeUndefined();
    expect(Object.values(r.state.units).filter((u) => u.kind === 'ship')).toEqual([]);
  });
});

describe('AMBIG-15 pick-up and drop-off along the route', () => {
  const along = (units: Spec['units'], cfg: { pickupEnRoute?: boolean } = {}) =>
    navalKingdoms({
      units,
      step: phase('a', 'movement'),
      dice: [],
      neutrals: {},
      options: { cfg },
    });
  const sail = (stops: { at: string; load: string[]; unload: string[] }[], cargo: string[] = []) => ({
    type: 'shipMove',
    ship: 'u1',
    path: ['east', 'bay'],
    cargo,
    stops,
  });

  it('the legal list names who waits on the way; a pick-up carries it to the end, both moved', () => {
    const { engine, state } = along([
      ['a', 'ship', 'west'],
      ['a', 'infantry', 'east'],
    ]);
    const toBay = engine
      .legalOrders(state, P('a'))
      .find((o) => o.type === 'shipMove' && o.path.at(-1) === 'bay' && o.cargo.length === 0);
    expect(toBay).toMatchObject({ path: ['east', 'bay'], pickups: [{ at: 'east', units: ['u2'] }] });
    const r = run(engine, state, 'a', sail([{ at: 'east', load: ['u2'], unload: [] }]));
    expect([r.state.units.u1?.area, r.state.units.u2?.area]).toEqual(['bay', 'bay']);
    expect(r.state.step.kind === 'playerTurn' && r.state.step.moved).toEqual(['u1', 'u2']);
  });

  it('a drop-off leaves the carried unit where it stops; it may not move on its own afterwards', () => {
    const { engine, state } = along([
      ['a', 'ship', 'west'],
      ['a', 'infantry', 'west'],
    ]);
    const r = run(engine, state, 'a', sail([{ at: 'east', load: [], unload: ['u2'] }], ['u2']));
    expect([r.state.units.u1?.area, r.state.units.u2?.area]).toEqual(['bay', 'east']);
    const again = engine.applyOrder(r.state, P('a'), { type: 'move', unit: 'u2', path: ['west'] } as Order);
    expect(again.ok).toBe(false);
  });

  it('refused: unloading what is not aboard, a second unit aboard, an unfriendly unit, the option off', () => {
    const { engine, state } = along([
      ['a', 'ship', 'west'],
      ['a', 'infantry', 'west'],
      ['a', 'bow', 'east'],
    ]);
    const code = (o: unknown, s: GameState = state) => {
      const r = engine.applyOrder(s, P('a'), o as Order);
      return r.ok ? 'ok' : r.error.code;
    };
    expect(code(sail([{ at: 'east', load: [], unload: ['u3'] }]))).toBe('order/invalid');
    expect(code(sail([{ at: 'east', load: ['u3'], unload: [] }], ['u2']))).toBe('order/invalid');
    expect(code(sail([{ at: 'bay', load: [], unload: ['u2'] }], ['u2']))).toBe('order/invalid'); // the end area
    const off = along(
      [
        ['a', 'ship', 'west'],
        ['a', 'bow', 'east'],
      ],
      { pickupEnRoute: false },
    );
    const r = off.engine.applyOrder(
      off.state,
      P('a'),
      sail([{ at: 'east', load: ['u2'], unload: [] }]) as Order,
    );
    expect(!r.ok && r.error.code).toBe('order/invalid');
  });
});

describe('8.3 retreat by ships', () => {
  it('along the coast where it can: no sea crossed, no die rolled', () => {
    const { engine, state } = navalKingdoms({
      units: [
        ['a', 'infantry', 'west'],
        ['b', 'ship', 'east'],
      ],
      step: phase('a', 'combat'),
      dice: diceFor('4-1', 'DR1'),
      neutrals: {},
    });
    const r = run(engine, state, 'a', { type: 'combatAttack', target: 'east', attackers: ['u1'] });
    expect(r.state.units.u2?.area).toBe('bay');
    expect(r.events.map((e) => e.type)).not.toContain('combatShipSinkingRolled');
  });
});

describe('8.2 landings: more cases', () => {
  const two = (units: Spec['units'], dice: number[], neutrals: Record<string, number> = {}) =>
    navalKingdoms({
      units,
      step: phase('a', 'movement'),
      dice,
      neutrals,
    });

  it('two ships from two seas land together and fight as one force (ships never halved)', () => {
    // u1 from west by Nord, u2 from port by Sud; bay (two coasts) held by b's bow u3.
    const { engine, state } = two(
      [
        ['a', 'ship', 'west'],
        ['a', 'ship', 'port'],
        ['b', 'bow', 'bay'],
      ],
      [4, 4, ...diceFor('1-1', 'DR1')],
    );
    let r = run(engine, state, 'a', { type: 'shipMove', ship: 'u1', path: ['nord', 'bay'], cargo: [] });
    r = run(engine, r.state, 'a', { type: 'shipMove', ship: 'u2', path: ['sud', 'bay'], cargo: [] });
    expect([r.state.units.u1?.area, r.state.units.u2?.area]).toEqual(['nord', 'sud']);
    r = run(engine, r.state, 'a', { type: 'endPhase' });
    const owed = combatLegal(engine, r.state, 'a');
    expect(owed).toMatchObject([
      { type: 'combatAttack', target: 'bay', choices: [{ attackers: ['u1', 'u2'], odds: '1-1' }] },
    ]);
    r = run(engine, r.state, 'a', { type: 'combatAttack', target: 'bay', attackers: ['u1', 'u2'] });
    r = run(engine, r.state, 'b', { type: 'combatRetreat', unit: 'u3', path: ['port'] });
    expect([r.state.units.u1?.area, r.state.units.u2?.area, r.state.units.u3?.area]).toEqual([
      'bay',
      'bay',
      'port',
    ]);
  });

  it('a neutral garrison is an unfriendly unit (AMBIG-51): a landing may be made on it', () => {
    const { engine, state } = two(
      [
        ['a', 'ship', 'west'],
        ['a', 'infantry', 'west'],
      ],
      [4, ...diceFor('3-2', 'DE')],
      { east: 2 },
    );
    let r = run(engine, state, 'a', land);
    r = run(engine, r.state, 'a', { type: 'endPhase' });
    r = run(engine, r.state, 'a', attack);
    expect([r.state.units.u1?.area, r.state.units.u2?.area]).toEqual(['east', 'east']);
    expect(r.state.neutrals.east).toBeUndefined();
  });

  it('a target emptied before the combat (its owner left) is landed in unopposed at combatDone', () => {
    const { engine, state } = two(
      [
        ['a', 'ship', 'west'],
        ['a', 'infantry', 'west'],
        ['b', 'bow', 'east'],
      ],
      [4],
    );
    let r = run(engine, state, 'a', land);
    const left = engine.applyOrder(r.state, 'system', { type: 'leave', player: P('b') } as Order);
    if (!left.ok) throw new Error(left.error.code);
    r = run(engine, left.value.state, 'a', { type: 'endPhase' });
    const after =
      r.state.step.kind === 'playerTurn' && r.state.step.phase === 'combat'
        ? run(engine, r.state, 'a', { type: 'combatDone' })
        : r;
    expect(after.events.map((e) => e.type)).toContain('navalLanded');
    expect([after.state.units.u1?.area, after.state.units.u2?.area]).toEqual(['east', 'east']);
  });

  it('the waiting force must be a legal stack at sea: a second laden ship may not wait beside it', () => {
    const { engine, state } = two(
      [
        ['a', 'ship', 'west'],
        ['a', 'infantry', 'west'],
        ['a', 'ship', 'bay'],
        ['a', 'infantry', 'bay'],
        ['b', 'bow', 'east'],
        ['b', 'bow', 'port'],
      ],
      [4, 4],
    );
    const r = run(engine, state, 'a', land);
    // u3 + u4 would wait in Nord too (to land on east): two ships and two infantry there.
    const second = engine.applyOrder(r.state, P('a'), {
      type: 'shipMove',
      ship: U('u3'),
      path: [A('nord'), A('east')],
      cargo: [U('u4')],
    });
    expect(second.ok).toBe(false);
  });
});
