import { describe, expect, it } from 'vitest';
import { applyCombatOrder, combatLegalOrders, combatWaitingFor } from '../../src/combat-phase/phase.ts';
import { combatStateOf } from '../../src/model/combat.ts';
import { asAreaId, asUnitId } from '../../src/model/ids.ts';
import type { Options } from '../../src/model/options.ts';
import type { CombatOrder } from '../../src/model/orders.ts';
import { A, BLUE, diceFor, fixture, play, RED } from './fixture.ts';

const U = asUnitId;

const attack = (target: string, ...attackers: string[]): CombatOrder => ({
  type: 'combatAttack',
  target: asAreaId(target),
  attackers: attackers.map(U),
});

describe('D-9 neutral garrison regeneration — BOOK (14.1)', () => {
  it('a lone attacker gets EX: it dies, the garrison is replaced at once, the city stays unowned', () => {
    const { ctx, state } = fixture({
      units: [['inf', RED, 'barbarianInfantry', 'b2']],
      neutrals: { b3: 2 },
      dice: diceFor('3-2', 'EX'),
    });
    const { state: after, events } = play(ctx, state, [[RED, attack('b3', 'inf')]]);
    expect(events[0]).toMatchObject({
      type: 'combatResolved',
      odds: '3-2',
      result: 'EX',
      attack: 6,
      defence: 4,
    });
    expect(after.units.inf).toBeUndefined();
    expect(after.neutrals.b3).toEqual({ strength: 2 });
    expect(events.map((e) => e.type)).toContain('combatNeutralRegenerated');
    expect(after.cities.b3).toBeUndefined();
    expect(combatStateOf(after).pending).toBeNull();
  });

  it('contrast: 3-3 + 2-3 against a neutral 2 with EX: the 2-3 is lost, the 3-3 advances, no regeneration', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'barbarianInfantry', 'b2'],
        ['bow', RED, 'bow', 'a3'],
      ],
      neutrals: { b3: 2 },
      dice: diceFor('5-2', 'EX'),
    });
    const first = play(ctx, state, [[RED, attack('b3', 'inf', 'bow')]]);
    expect(first.events[0]).toMatchObject({ odds: '5-2', result: 'EX' });
    expect(first.state.neutrals.b3).toBeUndefined();
    expect(combatLegalOrders(ctx, first.state, RED)).toEqual([
      { type: 'combatExchangeLoss', owed: 2, sets: [['bow'], ['inf']] },
    ]);
    const { state: after, events } = play(ctx, first.state, [
      [RED, { type: 'combatExchangeLoss', units: [U('bow')] }],
      [RED, { type: 'combatAdvance', unit: U('inf'), to: A('b3') }],
    ]);
    expect(after.units.bow).toBeUndefined();
    expect(after.units.inf?.area).toBe('b3');
    expect(after.neutrals.b3).toBeUndefined();
    expect(events.map((e) => e.type)).not.toContain('combatNeutralRegenerated');
    expect(combatStateOf(after).pending).toBeNull();
  });

  it('a garrison beaten by a retreat result comes back when nobody pursues in', () => {
    const { ctx, state } = fixture({
      units: [['inf', RED, 'barbarianInfantry', 'b2']],
      neutrals: { b3: 2 },
      dice: diceFor('3-2', 'DR1'),
    });
    const first = play(ctx, state, [[RED, attack('b3', 'inf')]]);
    expect(first.state.neutrals.b3).toBeUndefined();
    expect(combatLegalOrders(ctx, first.state, RED)).toEqual([
      { type: 'combatAdvance', unit: 'inf', from: 'b2', to: ['b3'], pursuit: true },
      { type: 'combatStop' },
    ]);
    const stopped = play(ctx, first.state, [[RED, { type: 'combatStop' }]]);
    expect(stopped.state.neutrals.b3).toEqual({ strength: 2 });
  });

  it('a garrison in an area without a city never comes back', () => {
    const { ctx, state } = fixture({
      units: [['inf', RED, 'barbarianInfantry', 'b1']],
      neutrals: { a1: 2 },
      dice: diceFor('3-2', 'EX'),
    });
    const { state: after } = play(ctx, state, [[RED, attack('a1', 'inf')]]);
    expect(after.neutrals.a1).toBeUndefined();
  });
});

describe('DE and advance after combat (7.2)', () => {
  const setup = () =>
    fixture({
      units: [
        ['inf', RED, 'barbarianInfantry', 'b2'],
        ['horse', RED, 'barbarianHorse', 'a3'],
        ['bow', RED, 'bow', 'b4'],
        ['foe', BLUE, 'bow', 'b3'],
      ],
      dice: diceFor('4-1', 'DE'),
    });

  it('removes every defender; at most two attackers advance, stacking permitting', () => {
    const { ctx, state } = setup();
    const first = play(ctx, state, [[RED, attack('b3', 'inf', 'horse', 'bow')]]);
    expect(first.state.units.foe).toBeUndefined();
    const advance = combatLegalOrders(ctx, first.state, RED);
    expect(advance.filter((o) => o.type === 'combatAdvance').map((o) => 'unit' in o && o.unit)).toEqual([
      'inf',
      'horse',
      'bow',
    ]);
    const second = play(ctx, first.state, [[RED, { type: 'combatAdvance', unit: U('inf'), to: A('b3') }]]);
    // A second big unit may not join the 3-3 (6); the bow may.
    const options = combatLegalOrders(ctx, second.state, RED).filter((o) => o.type === 'combatAdvance');
    expect(options.map((o) => 'unit' in o && o.unit)).toEqual(['bow']);
    const third = play(ctx, second.state, [[RED, { type: 'combatAdvance', unit: U('bow'), to: A('b3') }]]);
    expect(combatStateOf(third.state).pending).toBeNull();
    expect(third.state.units.bow?.area).toBe('b3');
  });

  it('rejects an advance the step does not offer', () => {
    const { ctx, state } = setup();
    const first = play(ctx, state, [[RED, attack('b3', 'inf', 'horse', 'bow')]]);
    const r = applyCombatOrder(ctx, first.state, RED, { type: 'combatAdvance', unit: U('inf'), to: A('c2') });
    expect(r.ok === false && r.error.code).toBe('combat/illegal_advance');
    const blue = applyCombatOrder(ctx, first.state, BLUE, { type: 'combatStop' });
    expect(blue.ok === false && blue.error.code).toBe('combat/not_your_choice');
  });
});

describe('defender retreat, owner choosing, then pursuit (7.2, 7.3)', () => {
  it('the defender chooses among the legal paths; attackers pursue along the chosen path', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'infantry', 'b2'],
        ['horse', RED, 'barbarianHorse', 'a3'],
        ['foe', BLUE, 'barbarianInfantry', 'b3'],
      ],
      dice: diceFor('2-1', 'DR2'),
    });
    const first = play(ctx, state, [[RED, attack('b3', 'inf', 'horse')]]);
    expect(first.events[0]).toMatchObject({ odds: '2-1', result: 'DR2' });
    expect(combatWaitingFor(first.state)).toEqual([BLUE]);
    expect(combatLegalOrders(ctx, first.state, RED)).toEqual([]);
    const [retreat] = combatLegalOrders(ctx, first.state, BLUE);
    // From b3 two areas away from b2 and a3: ends at c4 or a4-byzantium side; first area not next to them.
    expect(retreat).toMatchObject({ type: 'combatRetreat', unit: 'foe', eliminated: false });
    const paths = retreat?.type === 'combatRetreat' ? retreat.paths : [];
    expect(paths.length).toBeGreaterThan(1);
    expect(paths).toContainEqual(['b4', 'c4']);
    expect(paths).not.toContainEqual(['c3', 'c2']); // ends next to b2
    const second = play(ctx, first.state, [
      [BLUE, { type: 'combatRetreat', unit: U('foe'), path: [A('b4'), A('c4')] }],
    ]);
    expect(second.state.units.foe?.area).toBe('c4');
    expect(combatWaitingFor(second.state)).toEqual([RED]);
    const pursue = combatLegalOrders(ctx, second.state, RED).filter((o) => o.type === 'combatAdvance');
    // The 4-2 (MA 2) reaches b3 and b4; the 3-4 (MA 4) too, but never c4 where the unit stands.
    expect(pursue).toEqual([
      { type: 'combatAdvance', unit: 'inf', from: 'b2', to: ['b3', 'b4'], pursuit: true },
      { type: 'combatAdvance', unit: 'horse', from: 'a3', to: ['b3', 'b4'], pursuit: true },
    ]);
    const third = play(ctx, second.state, [
      [RED, { type: 'combatAdvance', unit: U('horse'), to: A('b4') }],
      [RED, { type: 'combatStop' }],
    ]);
    expect(third.state.units.horse?.area).toBe('b4');
    expect(combatStateOf(third.state).pending).toBeNull();
  });

  it('rejects a path that is not among the best ones', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'infantry', 'b2'],
        ['horse', RED, 'barbarianHorse', 'a3'],
        ['foe', BLUE, 'barbarianInfantry', 'b3'],
      ],
      dice: diceFor('2-1', 'DR2'),
    });
    const first = play(ctx, state, [[RED, attack('b3', 'inf', 'horse')]]);
    const r = applyCombatOrder(ctx, first.state, BLUE, {
      type: 'combatRetreat',
      unit: U('foe'),
      path: [A('c3'), A('c2')],
    });
    expect(r.ok === false && r.error.code).toBe('combat/illegal_retreat');
  });

  it('a unit with MA below the retreat distance is eliminated (7.2); a lone tribe retreats by itself', () => {
    const { ctx, state } = fixture({
      units: [
        ['t1', RED, 'tribe', 'b2'],
        ['t2', RED, 'tribe', 'a3'],
        ['t3', RED, 'tribe', 'c3'],
        ['foe', BLUE, 'tribe', 'b3'],
      ],
      dice: diceFor('3-1', 'DR2'),
    });
    const { state: after, events } = play(ctx, state, [[RED, attack('b3', 't1', 't2', 't3')]]);
    expect(events[0]).toMatchObject({ odds: '3-1', result: 'DR2' });
    expect(after.units.foe).toBeUndefined();
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'combatRetreated', unit: 'foe', eliminated: true }),
    );
  });
});

describe('attacker retreat and AE (7.2)', () => {
  it('AR1: the attackers retreat, area by area, owner choosing where there is a choice', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'barbarianInfantry', 'b2'],
        ['foe', BLUE, 'infantry', 'b3'],
      ],
      dice: diceFor('1-2', 'AR1'),
    });
    const first = play(ctx, state, [[RED, attack('b3', 'inf')]]);
    expect(first.events[0]).toMatchObject({ odds: '1-2', result: 'AR1' });
    const [order] = combatLegalOrders(ctx, first.state, RED);
    expect(order).toEqual({
      type: 'combatRetreat',
      unit: 'inf',
      from: 'b2',
      paths: [['a2'], ['b1'], ['c2']],
      eliminated: false,
    });
    const second = play(ctx, first.state, [
      [RED, { type: 'combatRetreat', unit: U('inf'), path: [A('b1')] }],
    ]);
    expect(second.state.units.inf?.area).toBe('b1');
    // The defender may pursue into the area the attacker left, but not onto it in b1.
    expect(combatLegalOrders(ctx, second.state, BLUE)).toEqual([
      { type: 'combatAdvance', unit: 'foe', from: 'b3', to: ['b2'], pursuit: true },
      { type: 'combatStop' },
    ]);
  });

  it('AE: the attackers are removed; the defender may advance into the area they left', () => {
    const { ctx, state } = fixture({
      units: [
        ['bow', RED, 'bow', 'b2'],
        ['foe', BLUE, 'infantry', 'b3'],
      ],
      dice: [1, 1],
    });
    const first = play(ctx, state, [[RED, attack('b3', 'bow')]]);
    expect(first.events[0]).toMatchObject({ odds: '1-2', result: 'AE' });
    expect(first.state.units.bow).toBeUndefined();
    expect(combatLegalOrders(ctx, first.state, BLUE)).toEqual([
      { type: 'combatAdvance', unit: 'foe', from: 'b3', to: ['b2'], pursuit: false },
      { type: 'combatStop' },
    ]);
  });
});

describe('who may attack what (7.1, 2.3, 9.3.2)', () => {
  const setup = () =>
    fixture({
      units: [
        ['inf', RED, 'barbarianInfantry', 'b2'],
        ['tribe', RED, 'tribe', 'a2'],
        ['foeTribe', BLUE, 'tribe', 'a1'],
        ['foe', BLUE, 'bow', 'b3'],
      ],
      dice: [...diceFor('3-1', 'DR1'), 6, 6],
    });

  it('lists each attackable area with its eligible units and the odds of each choice', () => {
    const { ctx, state } = setup();
    const orders = combatLegalOrders(ctx, state, RED);
    const b3 = orders.find((o) => o.type === 'combatAttack' && o.target === 'b3');
    expect(b3).toMatchObject({
      defender: BLUE,
      defenders: ['foe'],
      eligible: [{ unit: 'inf', from: 'b2', halved: false }],
    });
    // 7.1: each choice carries the chance of every result at its odds, from the table (2d6).
    const n = (ways: number) => ways / 36;
    expect(b3?.type === 'combatAttack' && b3.choices).toEqual([
      {
        attackers: ['inf'],
        odds: '3-2',
        shift: 0,
        outcomes: [
          { result: 'AE', chance: n(1) },
          { result: 'AR3', chance: n(2) },
          { result: 'AR2', chance: n(3) },
          { result: 'AR1', chance: n(9) },
          { result: 'EX', chance: n(11) },
          { result: 'DR1', chance: n(4) },
          { result: 'DR2', chance: n(3) },
          { result: 'DR3', chance: n(2) },
          { result: 'DE', chance: n(1) },
        ],
      },
    ]);
    const a1 = orders.find((o) => o.type === 'combatAttack' && o.target === 'a1');
    // Both the tribe and (across the b1–b2 river? no: a1 touches a2 and b1) the tribe alone may attack the tribe.
    expect(a1?.type === 'combatAttack' && a1.eligible.map((e) => e.unit)).toEqual(['tribe']);
    expect(orders[orders.length - 1]).toEqual({ type: 'combatDone' });
    expect(combatLegalOrders(ctx, state, BLUE)).toEqual([]);
  });

  it('tribes attack only tribes, even together with combat units', () => {
    const { ctx, state } = fixture({
      units: [
        ['tribe', RED, 'tribe', 'a3'],
        ['inf', RED, 'barbarianInfantry', 'b2'],
        ['foe', BLUE, 'bow', 'b3'],
      ],
    });
    const r = applyCombatOrder(ctx, state, RED, attack('b3', 'inf', 'tribe'));
    expect(r.ok === false && r.error.code).toBe('combat/tribes_attack_tribes_only');
  });

  it('halves an attack across a river (7.1) and says so in the legal order', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'barbarianInfantry', 'b1'],
        ['foe', BLUE, 'bow', 'b2'],
      ],
    });
    const order = combatLegalOrders(ctx, state, RED).find((o) => o.type === 'combatAttack');
    expect(order).toMatchObject({
      eligible: [{ unit: 'inf', halved: true }],
      choices: [{ attackers: ['inf'], odds: '1-2' }],
    });
  });

  it('no unit attacks twice and no defender is attacked twice in a player turn (7.1, 7.3)', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'barbarianInfantry', 'b2'],
        ['horse', RED, 'cavalry', 'c4'],
        ['foe', BLUE, 'bow', 'b3'],
        ['foe2', BLUE, 'barbarianInfantry', 'b4'],
      ],
      dice: [...diceFor('3-2', 'DR1'), ...diceFor('2-1', 'DE')],
    });
    const first = play(ctx, state, [[RED, attack('b3', 'inf')]]);
    expect(combatLegalOrders(ctx, first.state, BLUE)).toEqual([
      { type: 'combatRetreat', unit: 'foe', from: 'b3', paths: [['a3'], ['b4'], ['c3']], eliminated: false },
    ]);
    const second = play(ctx, first.state, [
      [BLUE, { type: 'combatRetreat', unit: U('foe'), path: [A('b4')] }],
      [RED, { type: 'combatStop' }],
    ]);
    const again = applyCombatOrder(ctx, second.state, RED, attack('a3', 'inf'));
    expect(again.ok === false && again.error.code).toBe('combat/no_defenders');
    const targets = combatLegalOrders(ctx, second.state, RED).flatMap((o) =>
      o.type === 'combatAttack' ? [o] : [],
    );
    // The bow that retreated into b4 is no part of the defence of b4, and the 3-3 cannot attack again.
    expect(targets).toEqual([
      expect.objectContaining({
        target: 'b4',
        defenders: ['foe2'],
        eligible: [expect.objectContaining({ unit: 'horse' })],
      }),
    ]);
    const reuse = applyCombatOrder(ctx, second.state, RED, attack('b4', 'horse', 'inf'));
    expect(reuse.ok === false && reuse.error.code).toBe('combat/already_attacked');
    // 4 against 3 on 1-1, roll 11: DR2 for the 3-3 only; the bow suffers none of it.
    const third = play(ctx, second.state, [[RED, attack('b4', 'horse')]]);
    expect(third.events[0]).toMatchObject({ defenders: ['foe2'], odds: '1-1', result: 'DR2' });
    expect(third.state.units.foe?.area).toBe('b4');
    const asked = combatLegalOrders(ctx, third.state, BLUE).flatMap((o) =>
      o.type === 'combatRetreat' ? [o.unit] : [],
    );
    expect(asked).not.toContain('foe');
  });

  it('records the attacker in flags.attacked (9.3.5)', () => {
    const { ctx, state } = fixture({
      units: [['inf', RED, 'barbarianInfantry', 'b2']],
      neutrals: { b3: 2 },
      dice: diceFor('3-2', 'EX'),
    });
    const { state: after } = play(ctx, state, [[RED, attack('b3', 'inf')]]);
    expect(after.flags.attacked).toEqual([RED]);
  });

  it('combatDone ends the phase only when nothing is pending, and only for the phasing player', () => {
    const { ctx, state } = fixture({ units: [['inf', RED, 'barbarianInfantry', 'b2']] });
    const done = applyCombatOrder(ctx, state, RED, { type: 'combatDone' });
    expect(done.ok && done.value.events).toEqual([{ type: 'combatPhaseEnded', player: RED }]);
    const blue = applyCombatOrder(ctx, state, BLUE, { type: 'combatDone' });
    expect(blue.ok).toBe(false);
  });
});

describe('options in combat', () => {
  it('13.5 Byzantium: a neutral garrison there gets one column left (AMBIG-55)', () => {
    const units = [
      ['inf', RED, 'barbarianInfantry', 'a4'],
      ['horse', RED, 'barbarianHorse', 'a3'],
    ] as const;
    const off = fixture({ units: [units[0]], neutrals: { byzantium: 4 } });
    const plain = combatLegalOrders(off.ctx, off.state, RED).find((o) => o.type === 'combatAttack');
    expect(plain?.type === 'combatAttack' && plain.choices[0]?.odds).toBe('1-2');
    const on = fixture({
      units: [units[0]],
      neutrals: { byzantium: 4 },
      options: (o) => ({ ...o, opt: { ...o.opt, byzantium: true } }),
    });
    const shifted = combatLegalOrders(on.ctx, on.state, RED).find((o) => o.type === 'combatAttack');
    expect(shifted?.type === 'combatAttack' && shifted.choices[0]).toMatchObject({ odds: '1-3', shift: -1 });
  });

  it('13.1.2: Pict tribes may attack neutral garrisons in Britannia only with the option', () => {
    const base = {
      units: [['t', RED, 'tribe', 'c3']] as const,
      neutrals: { c4: 2 },
      redPeople: 'PICT' as const,
    };
    const off = fixture(base);
    expect(combatLegalOrders(off.ctx, off.state, RED).filter((o) => o.type === 'combatAttack')).toEqual([]);
    const on = fixture({
      ...base,
      options: (o) => ({ ...o, opt: { ...o.opt, tribalAttacksOnNeutralGarrisons: true } }),
    });
    const order = combatLegalOrders(on.ctx, on.state, RED).find((o) => o.type === 'combatAttack');
    expect(order?.type === 'combatAttack' && order.choices[0]?.odds).toBe('1-2');
  });

  it('AMBIG-3 autoAE: odds below the table are an automatic AE without a roll', () => {
    const autoAE = (o: Options): Options => ({ ...o, cfg: { ...o.cfg, crtBelowMin: 'autoAE' } });
    const { ctx, state } = fixture({
      units: [
        ['bow', RED, 'bow', 'b1'],
        ['foe', BLUE, 'infantry', 'b2'],
      ],
      options: autoAE,
    });
    // A bow halved across the b1–b2 river: 1 against 4, below 1-3.
    const r = applyCombatOrder(ctx, state, RED, attack('b2', 'bow'));
    expect(r.ok && r.value.events[0]).toMatchObject({ odds: 'autoAE', result: 'AE', dice: null });
    expect(r.ok && r.value.state.units.bow).toBeUndefined();
    expect(r.ok && r.value.state.rng).toEqual(state.rng);
  });

  it('AMBIG-4: equal totals on EX eliminate both sides by default', () => {
    const { ctx, state } = fixture({
      units: [
        ['inf', RED, 'barbarianInfantry', 'b2'],
        ['foe', BLUE, 'barbarianInfantry', 'b3'],
      ],
      dice: diceFor('1-1', 'EX'),
    });
    const { state: after } = play(ctx, state, [[RED, attack('b3', 'inf')]]);
    expect(after.units.inf).toBeUndefined();
    expect(after.units.foe).toBeUndefined();
  });
});
