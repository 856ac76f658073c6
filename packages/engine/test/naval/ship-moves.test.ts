/** 5.2 / 5.3 ships moving in the movement phase, with cargo and the sinking roll (D-24 in play). */
import { describe, expect, it } from 'vitest';
import type { GameState } from '../../src/index.ts';
import { patchRealmPlayer } from '../../src/model/realm.ts';
import { applyShipMove, cargoOptions, shipMoveLegal } from '../../src/naval/ship-movement.ts';
import { CRT, crtColumnIndex, crtResult } from '../../src/tables/crt.ts';
import { A, P, phase, scenario, U } from '../helpers/scenario.ts';
import { NAVAL_MAP, navalKingdoms } from './fixture.ts';

function sea(people: 'GERMAN 1' | 'VIKING', stage: 'kingdom' | 'empire', dice: number[]) {
  return scenario({
    map: NAVAL_MAP,
    players: [
      { id: 'a', position: people, stage },
      { id: 'b', position: 'SLAV 1' },
    ],
    units: [
      ['a', 'ship', 'west'], // u1
      ['a', 'infantry', 'west'], // u2
      ['a', 'leader', 'west'], // u3
      ['b', 'barbarianInfantry', 'east'], // u4 blocks east
    ],
    step: phase('a', 'movement'),
    dice,
    neutrals: {},
  });
}
const move = (path: string[], cargo: string[]) => ({
  type: 'shipMove' as const,
  ship: U('u1'),
  path: path.map(A),
  cargo: cargo.map(U),
});

describe('5.2 ships in the movement phase', () => {
  it('carries one unit and one leader; two seas and a 3 arrive (D-24)', () => {
    const { state, ctx } = sea('GERMAN 1', 'kingdom', [3]);
    expect(cargoOptions(state, U('u1'))).toEqual([[], ['u2'], ['u3'], ['u2', 'u3']]);
    const r = applyShipMove(ctx, state, P('a'), move(['nord', 'far', 'isle'], ['u2', 'u3']));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const s = r.value.state as GameState;
    expect([s.units.u1?.area, s.units.u2?.area, s.units.u3?.area]).toEqual(['isle', 'isle', 'isle']);
    expect(s.step.kind === 'playerTurn' && s.step.moved).toEqual(['u1', 'u2', 'u3']);
    expect(r.value.events[0]).toMatchObject({ type: 'shipSinkingRolled', seas: 2, die: 3, sunk: false });
  });
  it('a 2 sinks the ship with its cargo; a Viking kingdom adds 1, a Viking empire does not', () => {
    const sunk = sea('GERMAN 1', 'kingdom', [2]);
    const r = applyShipMove(sunk.ctx, sunk.state, P('a'), move(['nord', 'far', 'isle'], ['u2']));
    expect(r.ok && Object.keys(r.value.state.units).sort()).toEqual(['u3', 'u4']);
    const v = sea('VIKING', 'kingdom', [2]);
    const rv = applyShipMove(v.ctx, v.state, P('a'), move(['nord', 'far', 'isle'], []));
    expect(rv.ok && rv.value.state.units.u1?.area).toBe('isle');
    const e = sea('VIKING', 'empire', [2]);
    const re = applyShipMove(e.ctx, e.state, P('a'), move(['nord', 'far', 'isle'], []));
    expect(re.ok && re.value.state.units.u1).toBeUndefined();
  });
  it('no roll along the coast only; unfriendly areas block; two units cannot be carried', () => {
    const { state, ctx } = sea('GERMAN 1', 'kingdom', []);
    expect(applyShipMove(ctx, state, P('a'), move(['east'], [])).ok).toBe(false); // b's unit there
    const legal = shipMoveLegal(ctx, state, P('a'));
    // 8.2: east may only be landed in (from the sea), never passed through.
    expect(legal.some((o) => o.path.slice(0, -1).includes(A('east')))).toBe(false);
    expect(
      legal.filter((o) => o.path.at(-1) === 'east').every((o) => o.landing && o.path.at(-2) === 'nord'),
    ).toBe(true);
    expect(legal.some((o) => o.path.at(-1) === 'bay')).toBe(true);
    expect(applyShipMove(ctx, state, P('a'), move(['nord', 'bay'], ['u2', 'u2'])).ok).toBe(false);
  });
});

describe('8.1 interception in play (D-8)', () => {
  const oneOne = crtColumnIndex(CRT, '1-1');
  const diceFor = (want: (r: string) => boolean): [number, number] => {
    for (let roll = 2; roll <= 12; roll++)
      if (want(crtResult(CRT, oneOne, roll))) return [Math.max(1, roll - 6), Math.min(6, roll - 1)];
    throw new Error('no such result on 1-1');
  };
  function intercepted(dice: number[], intercept = true) {
    const s = navalKingdoms({
      units: [
        ['a', 'ship', 'west'], // u1
        ['a', 'infantry', 'west'], // u2
        ['b', 'ship', 'east'], // u3 touches nord
      ],
      step: phase('a', 'movement'),
      dice,
      neutrals: {},
    });
    return { ...s, state: intercept ? s.state : patchRealmPlayer(s.state, P('b'), { intercept: false }) };
  }
  it('DR: the interceptor stays put without a sinking roll and the ship sails on', () => {
    const { state, ctx } = intercepted([3, ...diceFor((r) => r.startsWith('DR'))]);
    const r = applyShipMove(ctx, state, P('a'), move(['nord', 'bay'], ['u2']));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.state.units.u3?.area).toBe('east');
    expect(r.value.state.riggedDice).toEqual([]);
    expect(r.value.state.units.u1?.area).toBe('bay');
    expect(r.value.events.map((e) => e.type)).toContain('shipIntercepted');
  });
  it('AR2: back to the start; a 2 sinks it with its cargo, a 3 keeps it there, moved', () => {
    const ar2 = diceFor((r) => r === 'AR2');
    const sunk = intercepted([3, ...ar2, 2]);
    const r1 = applyShipMove(sunk.ctx, sunk.state, P('a'), move(['nord', 'bay'], ['u2']));
    expect(r1.ok && Object.keys(r1.value.state.units)).toEqual(['u3']);
    const back = intercepted([3, ...ar2, 3]);
    const r2 = applyShipMove(back.ctx, back.state, P('a'), move(['nord', 'bay'], ['u2']));
    expect(r2.ok && [r2.value.state.units.u1?.area, r2.value.state.units.u2?.area]).toEqual(['west', 'west']);
    expect(r2.ok && r2.value.state.step.kind === 'playerTurn' && r2.value.state.step.moved).toEqual([
      'u1',
      'u2',
    ]);
  });
  it('an owner who chose not to intercept lets the ship pass', () => {
    const { state, ctx } = intercepted([3], false);
    const r = applyShipMove(ctx, state, P('a'), move(['nord', 'bay'], []));
    expect(r.ok && r.value.state.units.u1?.area).toBe('bay');
    expect(r.ok && r.value.events.some((e) => e.type === 'shipIntercepted')).toBe(false);
  });
});
