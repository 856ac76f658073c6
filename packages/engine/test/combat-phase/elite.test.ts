import { describe, expect, it } from 'vitest';
import { applyCombatOrder, combatLegalOrders, combatWaitingFor } from '../../src/combat-phase/phase.ts';
import { combatStateOf } from '../../src/model/combat.ts';
import { asAreaId, asUnitId } from '../../src/model/ids.ts';
import type { CombatOrder } from '../../src/model/orders.ts';
import { patchRealmPlayer } from '../../src/model/realm.ts';
import { A, BLUE, diceFor, fixture, play, RED } from './fixture.ts';

const U = asUnitId;

// D-18 Elite refuses retreat — BOOK (11.4): a 5-3 elite and a 2-3 bow attack; the result is AR1.
describe('D-18 elite refuses retreat — BOOK (11.4)', () => {
  const setup = (dice: number[]) =>
    fixture({
      units: [
        ['elite', RED, 'elite', 'b2'],
        ['bow', RED, 'bow', 'b2'],
        ['foe', BLUE, 'infantry', 'b3'],
      ],
      dice,
    });
  const attack: CombatOrder = {
    type: 'combatAttack',
    target: asAreaId('b3'),
    attackers: [U('elite'), U('bow')],
  };
  const bowRetreat: CombatOrder = { type: 'combatRetreat', unit: U('bow'), path: [A('b1')] };

  it('the bow retreats first; only then does the elite’s owner accept or refuse', () => {
    const { ctx, state } = setup(diceFor('3-2', 'AR1'));
    const first = play(ctx, state, [[RED, attack]]);
    expect(first.events[0]).toMatchObject({ odds: '3-2', result: 'AR1' });
    const orders = combatLegalOrders(ctx, first.state, RED);
    expect(orders.map((o) => o.type)).toEqual(['combatRetreat']);
    const second = play(ctx, first.state, [[RED, bowRetreat]]);
    expect(second.state.units.bow?.area).toBe('b1');
    expect(combatLegalOrders(ctx, second.state, RED)).toEqual([
      { type: 'combatEliteChoice', refuse: false, elites: ['elite'] },
      { type: 'combatEliteChoice', refuse: true, elites: ['elite'] },
    ]);
  });

  it('on refusal the attacker rerolls at the odds recomputed without the bow, until no attacker retreat', () => {
    // 5 against 4 is 1-1: first reroll 1+4 = AR2 (a retreat again, rerolled), then 6+6 = DR3.
    const { ctx, state } = setup([...diceFor('3-2', 'AR1'), 1, 4, 6, 6]);
    const refused = play(ctx, state, [
      [RED, attack],
      [RED, bowRetreat],
      [RED, { type: 'combatEliteChoice', refuse: true }],
    ]);
    expect(combatLegalOrders(ctx, refused.state, RED)).toEqual([
      { type: 'combatReroll', abort: false },
      { type: 'combatReroll', abort: true },
    ]);
    const { state: after, events } = play(ctx, refused.state, [
      [RED, { type: 'combatReroll', abort: false }],
    ]);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'combatRerolled',
        attackers: ['elite'],
        odds: '1-1',
        rolls: [
          [1, 4],
          [6, 6],
        ],
        result: 'DR3',
      }),
    );
    expect(after.units.elite?.area).toBe('b2');
    // The 4-2 (MA 2) cannot retreat 3: its owner moves it as far as it can (choosing where), then it is
    // eliminated (7.2).
    expect(combatWaitingFor(after)).toEqual([BLUE]);
    const [dying] = combatLegalOrders(ctx, after, BLUE);
    expect(dying).toMatchObject({ type: 'combatRetreat', unit: 'foe', eliminated: true });
    const path = dying?.type === 'combatRetreat' ? dying.paths[0]! : [];
    expect(path).toHaveLength(2);
    const gone = play(ctx, after, [[BLUE, { type: 'combatRetreat', unit: U('foe'), path }]]);
    expect(gone.state.units.foe).toBeUndefined();
    expect(combatWaitingFor(gone.state)).toEqual([RED]);
  });

  it('or the attacker aborts: nothing more happens', () => {
    const { ctx, state } = setup(diceFor('3-2', 'AR1'));
    const { state: after } = play(ctx, state, [
      [RED, attack],
      [RED, bowRetreat],
      [RED, { type: 'combatEliteChoice', refuse: true }],
      [RED, { type: 'combatReroll', abort: true }],
    ]);
    expect(after.units.elite?.area).toBe('b2');
    expect(after.units.foe?.area).toBe('b3');
    expect(combatStateOf(after).pending).toBeNull();
  });

  it('accepting, the elite retreats like any unit', () => {
    const { ctx, state } = setup(diceFor('3-2', 'AR1'));
    const { state: after } = play(ctx, state, [
      [RED, attack],
      [RED, bowRetreat],
      [RED, { type: 'combatEliteChoice', refuse: false }],
      [RED, { type: 'combatRetreat', unit: U('elite'), path: [A('a2')] }],
    ]);
    expect(after.units.elite?.area).toBe('a2');
  });

  it('DERIVED: a defending elite alone given DR2 makes the attacker reroll or abort; DE is no retreat', () => {
    const defending = (dice: number[]) =>
      fixture({
        units: [
          ['inf', RED, 'infantry', 'b2'],
          ['horse', RED, 'barbarianHorse', 'a3'],
          ['elite', BLUE, 'elite', 'b3'],
        ],
        dice,
      });
    const attack2: CombatOrder = {
      type: 'combatAttack',
      target: asAreaId('b3'),
      attackers: [U('inf'), U('horse')],
    };
    // 7 against 5 is 1.4: the 1-1 column.
    const { ctx, state } = defending([...diceFor('1-1', 'DR2'), 6, 6, 2, 6]);
    const first = play(ctx, state, [[RED, attack2]]);
    expect(first.events[0]).toMatchObject({ odds: '1-1', result: 'DR2' });
    expect(combatWaitingFor(first.state)).toEqual([BLUE]);
    const refused = play(ctx, first.state, [
      [BLUE, { type: 'combatEliteChoice', refuse: true }],
      [RED, { type: 'combatReroll', abort: false }],
    ]);
    // 6+6 is DR3, a retreat again: rolled again; 2+6 is EX on 1-1.
    expect(refused.events).toContainEqual(
      expect.objectContaining({
        type: 'combatRerolled',
        rolls: [
          [6, 6],
          [2, 6],
        ],
        result: 'EX',
      }),
    );
    expect(refused.state.units.elite).toBeUndefined();
    const de = defending(diceFor('1-1', 'DR2').map(() => 6));
    const deRolled = play(de.ctx, de.state, [[RED, attack2]]);
    expect(deRolled.events[0]).toMatchObject({ result: 'DR3' });
    expect(combatWaitingFor(deRolled.state)).toEqual([BLUE]);
  });
});

describe('elite reroll off the table (11.4, AMBIG-3 forbidVoluntary)', () => {
  it('leaves only the abort when the recomputed odds are below the table', () => {
    // Red: an elite halved across the b1–b2 river, two 3-3s from a2 and c2. Blue: elite + bow + leader.
    // 2½ + 3 + 3 = 8½ against 7 is 1-1, one column left for the leader: 1-2; 6 + 2 gives AR1.
    const { ctx, state } = fixture({
      units: [
        ['elite', RED, 'elite', 'b1'],
        ['i1', RED, 'barbarianInfantry', 'a2'],
        ['i2', RED, 'barbarianInfantry', 'c2'],
        ['foe', BLUE, 'elite', 'b2'],
        ['fbow', BLUE, 'bow', 'b2'],
        ['flead', BLUE, 'leader', 'b2'],
      ],
      dice: diceFor('1-2', 'AR1'),
      options: (o) => ({ ...o, cfg: { ...o.cfg, crtBelowMin: 'forbidVoluntary' } }),
    });
    const first = play(ctx, state, [
      [RED, { type: 'combatAttack', target: asAreaId('b2'), attackers: [U('elite'), U('i1'), U('i2')] }],
    ]);
    expect(first.events[0]).toMatchObject({ attack: 17, defence: 14, odds: '1-2', shift: -1, result: 'AR1' });
    let s = first.state;
    for (let i = 0; i < 4; i++) {
      const retreat = combatLegalOrders(ctx, s, RED).find((o) => o.type === 'combatRetreat');
      if (retreat?.type !== 'combatRetreat') break;
      s = play(ctx, s, [[RED, { type: 'combatRetreat', unit: retreat.unit, path: retreat.paths[0]! }]]).state;
    }
    s = play(ctx, s, [[RED, { type: 'combatEliteChoice', refuse: true }]]).state;
    // Alone, the halved elite has 2½ against 7: 1-3, one left for the leader: off the table.
    expect(combatLegalOrders(ctx, s, RED)).toEqual([{ type: 'combatReroll', abort: true }]);
    const refused = applyCombatOrder(ctx, s, RED, { type: 'combatReroll', abort: false });
    expect(refused.ok === false && refused.error.code).toBe('combat/odds_off_table');
    const aborted = play(ctx, s, [[RED, { type: 'combatReroll', abort: true }]]);
    expect(combatStateOf(aborted.state).pending).toBeNull();
    expect(aborted.state.units.elite?.area).toBe('b1');
  });
});

describe('Attempted Coup (11.7.2 result 11, AMBIG-38)', () => {
  it('an elite may attack only from the capital area or next to it in the coup turn', () => {
    const base = fixture({
      units: [
        ['elite', RED, 'elite', 'b2'],
        ['foe', BLUE, 'bow', 'b3'],
      ],
    });
    const withCapital = (capital: string) => ({
      ...base.state,
      players: base.state.players.map((p) => (p.id === RED ? { ...p, capital: A(capital) } : p)),
    });
    const coup = (capital: string) =>
      patchRealmPlayer(withCapital(capital), RED, { coupTurn: base.state.turn });
    const attack: CombatOrder = { type: 'combatAttack', target: asAreaId('b3'), attackers: [U('elite')] };
    const far = applyCombatOrder(base.ctx, coup('c4'), RED, attack);
    expect(far.ok === false && far.error.code).toBe('combat/coup_restricted');
    expect(applyCombatOrder(base.ctx, coup('b1'), RED, attack).ok).toBe(true);
    expect(applyCombatOrder(base.ctx, withCapital('c4'), RED, attack).ok).toBe(true);
  });
});
