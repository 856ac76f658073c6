/**
 * Consequences before commitment: the legal orders say what a move would cost, and playing the
 * order on through the contract shows the rule doing exactly that. Positions are reached from
 * entry (4.2, 9 intro) through createGame/applyOrder on a grid map.
 */
import { describe, expect, it } from 'vitest';
import {
  type Consequence,
  createEngine,
  type Engine,
  type GameState,
  type LegalOrder,
  type Order,
  type UnitId,
} from '../../src/index.ts';
import { gridMap } from '../helpers/fixture-map.ts';
import { A, adminStep, P, phase, scenario } from '../helpers/scenario.ts';

const map = gridMap({ rows: 7, cols: 7, starts: { r3c3: 'GERMAN 1' }, outside: [] });
const g = P('g');

function apply(engine: Engine, s: GameState, order: Order): { state: GameState; events: { type: string }[] } {
  const r = engine.applyOrder(s, g, order);
  if (!r.ok) throw new Error(`${order.type}: ${r.error.code}`);
  return { state: r.value.state, events: r.value.events as { type: string }[] };
}

/** Entry, combination and growth of turn 1: the German's first tribe splits; movement begins. */
function firstMovement(): { engine: Engine; s: GameState } {
  const engine = createEngine(map);
  const created = engine.createGame({
    seed: 'consequences',
    players: [{ id: 'g', name: 'German', seat: 0, colour: 'red' }],
  });
  if (!created.ok) throw new Error(created.error.code);
  let s = apply(engine, created.value, { type: 'chooseStart', position: 'GERMAN 1', area: A('r3c3') }).state;
  while (s.step.kind === 'playerTurn' && s.step.phase !== 'movement') {
    const split = engine.legalOrders(s, g).find((o) => o.type === 'split');
    s = apply(engine, s, split?.type === 'split' ? split : { type: 'endPhase' }).state;
  }
  expect(s.step).toMatchObject({ kind: 'playerTurn', phase: 'movement' });
  return { engine, s };
}

const tribes = (s: GameState): UnitId[] =>
  Object.values(s.units)
    .filter((u) => u.owner === g && u.kind === 'tribe')
    .map((u) => u.id)
    .sort();

const destination = (legal: LegalOrder[], unit: UnitId, to: string) => {
  const m = legal.find((o) => o.type === 'move' && o.unit === unit);
  if (m?.type !== 'move') throw new Error(`no move for ${unit}`);
  const d = m.destinations.find((x) => x.to === to);
  if (!d) throw new Error(`${unit} cannot reach ${to}`);
  return d;
};

const endPhaseOf = (legal: LegalOrder[]) => legal.find((o) => o.type === 'endPhase');

/** Plays missed-deadline defaults until `stop` holds (the rest of the turn, as the rules run it). */
function playUntil(
  engine: Engine,
  s: GameState,
  stop: (s: GameState) => boolean,
  events: { type: string }[],
) {
  for (let i = 0; i < 50 && !stop(s); i++) {
    const [next] = engine.timeoutOrders(s, g);
    if (!next) throw new Error(`stuck at ${JSON.stringify(s.step)}`);
    const r = apply(engine, s, next);
    events.push(...r.events);
    s = r.state;
  }
  return s;
}

describe('consequences of a move (4.3.3, 6, 9.2)', () => {
  it('9.2: a second tribe moved into its brother’s area is marked as only a loss, and is lost', () => {
    const { engine, s: start } = firstMovement();
    const [first, second] = tribes(start);
    if (!first || !second) throw new Error('the split made no second tribe');
    const s = apply(engine, start, { type: 'move', unit: first, path: [A('r3c4')] }).state;
    const legal = engine.legalOrders(s, g);

    const crowded = destination(legal, second, 'r3c4');
    expect(crowded.onlyLoses).toBe(true);
    expect(crowded.consequences).toEqual<Consequence[]>([
      { kind: 'stackingLoss', section: '9.2', area: A('r3c4'), lose: 1, automatic: true, avoidable: false },
    ]);
    // Staying put costs nothing: ending movement now loses no unit.
    expect(endPhaseOf(legal)?.consequences).toBeUndefined();

    // The warning comes true: after movement one non-inverted tribe per area stays (9.2).
    const moved = apply(engine, s, { type: 'move', unit: second, path: [A('r3c4')] });
    const end = apply(engine, moved.state, { type: 'endPhase' });
    expect(end.events).toContainEqual(expect.objectContaining({ type: 'unitsRemoved', reason: 'overstack' }));
    expect(tribes(end.state)).toHaveLength(1);
  });

  it('9.2: ending movement with both tribes still in one area is flagged on endPhase', () => {
    const { engine, s } = firstMovement();
    const end = endPhaseOf(engine.legalOrders(s, g));
    expect(end?.consequences).toEqual<Consequence[]>([
      { kind: 'stackingLoss', section: '9.2', area: A('r3c3'), lose: 1, automatic: true, avoidable: false },
    ]);
    // A move that a unit still standing there could make avoidable says so.
    const [first] = tribes(s);
    const back = destination(engine.legalOrders(s, g), first!, 'r3c4');
    expect(back.consequences).toBeUndefined();
  });

  it('6: a combat unit moved into an area holding a tribe costs a unit the owner chooses', () => {
    const { engine, state } = scenario({
      map,
      players: [{ id: 'g', position: 'GERMAN 1' }],
      units: [
        ['g', 'tribe', 'r3c3'],
        ['g', 'infantry', 'r3c4'],
      ],
      step: phase('g', 'movement'),
    });
    const legal = engine.legalOrders(state, g);
    const d = destination(legal, 'u2' as UnitId, 'r3c3');
    expect(d.consequences).toEqual<Consequence[]>([
      { kind: 'stackingLoss', section: '6', area: A('r3c3'), lose: 1, automatic: false, avoidable: true },
    ]);
    expect(d.onlyLoses).toBe(true);
  });
});

describe('consequences of a move: continuity (9.3.4)', () => {
  it('moving the two first tribes apart is flagged; the administration phase then keeps one group', () => {
    const { engine, s: start } = firstMovement();
    const [first, second] = tribes(start);
    const s = apply(engine, start, { type: 'move', unit: first!, path: [A('r3c4')] }).state;
    const legal = engine.legalOrders(s, g);

    const apart = destination(legal, second!, 'r3c2');
    expect(apart.consequences).toEqual<Consequence[]>([
      {
        kind: 'hordeCutApart',
        section: '9.3.4',
        groups: [[A('r3c2')], [A('r3c4')]],
        tribesAtRisk: 1,
        mendable: false,
      },
    ]);
    expect(apart.onlyLoses).toBeUndefined();

    // Played on: the administration phase asks to keep one group (9.3.4) and the other tribe goes.
    const events: { type: string }[] = [];
    let t = apply(engine, s, { type: 'move', unit: second!, path: [A('r3c2')] }).state;
    t = playUntil(engine, t, (x) => engine.legalOrders(x, g).some((o) => o.type === 'keepGroup'), events);
    const keep = engine.legalOrders(t, g).filter((o) => o.type === 'keepGroup');
    expect(keep.map((o) => (o.type === 'keepGroup' ? o.group : []))).toEqual([[A('r3c2')], [A('r3c4')]]);
    const after = apply(engine, t, { type: 'keepGroup', area: A('r3c4') });
    expect(tribes(after.state)).toHaveLength(1);
    expect(Object.values(after.state.units).map((u) => u.area)).toEqual([A('r3c4')]);
  });

  it('a cut that later moves could mend says so, and endPhase warns while it stands', () => {
    const { engine, state } = scenario({
      map,
      players: [{ id: 'g', position: 'GERMAN 1' }],
      units: [
        ['g', 'tribe', 'r3c3'],
        ['g', 'tribe', 'r3c4'],
        ['g', 'tribe', 'r3c5'],
      ],
      step: phase('g', 'movement'),
    });
    const legal = engine.legalOrders(state, g);
    const cut = destination(legal, 'u2' as UnitId, 'r2c4');
    expect(cut.consequences).toEqual<Consequence[]>([
      {
        kind: 'hordeCutApart',
        section: '9.3.4',
        groups: [[A('r2c4')], [A('r3c3')], [A('r3c5')]],
        tribesAtRisk: 2,
        mendable: true,
      },
    ]);
    expect(endPhaseOf(legal)?.consequences).toBeUndefined();
    const s = apply(engine, state, { type: 'move', unit: 'u2' as UnitId, path: [A('r2c4')] }).state;
    expect(endPhaseOf(engine.legalOrders(s, g))?.consequences).toEqual<Consequence[]>([
      {
        kind: 'hordeCutApart',
        section: '9.3.4',
        groups: [[A('r2c4')], [A('r3c3')], [A('r3c5')]],
        tribesAtRisk: 2,
        mendable: false,
      },
    ]);
  });
});

// Row 0 and r1c0 lie outside the imperial boundary; r0c0 touches only r0c1 and r1c0 (11.5).
const EMPIRE_MAP = gridMap({
  rows: 3,
  cols: 3,
  outside: ['r0c0', 'r0c1', 'r0c2', 'r1c0'],
  cities: { r2c2: { tax: 2 } },
});

describe('consequences for kingdoms and empires (10.4, 11.5)', () => {
  const empire = (step: GameState['step'], money = 0) =>
    scenario({
      map: EMPIRE_MAP,
      turn: 5,
      players: [
        { id: 'g', position: 'GERMAN 1', stage: 'empire', money },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [
        ['g', 'elite', 'r0c0'],
        ['g', 'infantry', 'r1c0'],
        ['g', 'infantry', 'r2c2'],
      ],
      neutrals: {},
      step,
    });

  it('11.5: moving the infantry that links the elite to the boundary leaves the elite unsupported', () => {
    const { engine, state } = empire(phase('g', 'movement'));
    const legal = engine.legalOrders(state, g);
    const away = destination(legal, 'u2' as UnitId, 'r1c1');
    expect(away.consequences).toEqual<Consequence[]>([
      { kind: 'supportLost', section: '11.5', units: ['u1' as UnitId] },
    ]);
    // The elite itself may only go where it stays supported (11.5): none of its moves loses support;
    // joining the infantry in r1c0 would make two big units share an area (6).
    const elite = legal.find((o) => o.type === 'move' && o.unit === 'u1');
    if (elite?.type !== 'move') throw new Error('the elite has no move');
    expect(elite.destinations.flatMap((d) => d.consequences ?? []).map((c) => [c.kind, c.section])).toEqual([
      ['stackingLoss', '6'],
    ]);
  });

  it('10.4: a plan that must disband for upkeep says how far the money falls short', () => {
    // Treasury 6 + tax 2 + 2 for the capital placed on r2c2 (10.3) = 10 against upkeep 5 + 3 + 3.
    const { engine, state } = empire({ kind: 'economic', pending: [g], pillage: {} }, 6);
    const s = { ...state, cities: { ...state.cities, r2c2: { owner: g, everOwned: true } } };
    const plans = engine.legalOrders(s, g).filter((o) => o.type === 'realmPlan');
    expect(plans.length).toBeGreaterThan(0);
    for (const p of plans) {
      if (p.type !== 'realmPlan') continue;
      expect(p.consequences?.filter((c) => c.kind === 'upkeepShortfall')).toEqual<Consequence[]>([
        { kind: 'upkeepShortfall', section: '10.4', upkeep: 11, available: 10, disband: p.plan.disband },
      ]);
    }
  });

  // 10.6.2, 11.6, 11.7.2 (D-28): an empire since turn 1 at turn 5 has spent 4 turns as one. On the
  // 0 % column (administration.json) rolls 2 and 3 read Rebellion (3 ways in 36) and roll 5 reads 3,
  // below 4 (4 ways): 7 in 36 call for the Rebellion Table, whose 7 (6 ways in 36) is Complete
  // Collapse. 7/36 × 6/36 = 7/216.
  const collapse: Consequence = {
    kind: 'realmMayCollapse',
    section: '11.7.2',
    chance: 7 / 216,
    percent: 0,
    rebellion: 7 / 36,
    capitalLost: false,
  };

  it("11.7.2, 14.3: ending an empire's economic phase says how likely its administration ends it", () => {
    const { engine, state } = empire({ kind: 'economic', pending: [g], pillage: {} }, 20);
    const legal = engine.legalOrders(state, g);
    expect(endPhaseOf(legal)?.consequences).toEqual<Consequence[]>([collapse]);
    // A dearer column makes a rebellion less likely: the plan says so for the column it buys.
    const plans = legal.filter((o) => o.type === 'realmPlan');
    const at = (percent: number) =>
      plans.find(
        (o) => o.type === 'realmPlan' && o.plan.adminPercent === percent && !o.plan.purchases.length,
      );
    expect(at(0)?.consequences).toEqual<Consequence[]>([collapse]);
    // 10 %: roll 2 reads Rebellion (1 way) and roll 4 reads 3 (3 ways); roll 5 reads 4, not below 4.
    expect(at(10)?.consequences).toEqual<Consequence[]>([
      { ...collapse, chance: 24 / 1296, percent: 10, rebellion: 4 / 36 },
    ]);
  });

  it('D-28: the administration then rolls Rebellion and 7, and the empire collapses as foreseen', () => {
    const { engine, state } = scenario({
      map: EMPIRE_MAP,
      turn: 5,
      players: [
        { id: 'g', position: 'GERMAN 1', stage: 'empire', money: 20 },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [['g', 'infantry', 'r2c2']],
      neutrals: {},
      step: { kind: 'economic', pending: [g], pillage: {} },
      // Administration 1 + 1 = 2 (Rebellion on 0 %), then the Rebellion Table 3 + 4 = 7.
      dice: [1, 1, 3, 4],
    });
    let s = state;
    const seen: { type: string; reason?: string }[] = [];
    for (let i = 0; i < 10 && !seen.some((e) => e.type === 'cycleEnded'); i++) {
      if (!engine.legalOrders(s, g).some((o) => o.type === 'endPhase')) break;
      const r = apply(engine, s, { type: 'endPhase' });
      seen.push(...r.events);
      s = r.state;
    }
    expect(seen).toContainEqual(expect.objectContaining({ type: 'cycleEnded', reason: 'collapsed' }));
  });

  it("11.7.2: a kingdom's 7 has no effect, so its plans carry no collapse", () => {
    const { engine, state } = scenario({
      map: EMPIRE_MAP,
      turn: 5,
      players: [
        { id: 'g', position: 'GERMAN 1', stage: 'kingdom', money: 20 },
        { id: 'b', position: 'SLAV 1' },
      ],
      units: [['g', 'infantry', 'r2c2']],
      neutrals: {},
      step: { kind: 'economic', pending: [g], pillage: {} },
    });
    for (const o of engine.legalOrders(state, g))
      expect(('consequences' in o ? (o.consequences ?? []) : []).map((c) => c.kind)).not.toContain(
        'realmMayCollapse',
      );
  });
});

describe('consequences outside the movement of tribes', () => {
  const seaMap = gridMap({
    rows: 3,
    cols: 3,
    seas: { north: { shores: ['r0c0', 'r0c2'], marks: ['VIKING'] } },
  });
  const crossingFrom = (
    units: [string, 'tribe', string][],
    cfg: { emptyBarbarianEndsCycle?: boolean } = {},
    dice: number[] = [],
  ) => {
    const { engine, state } = scenario({
      map: seaMap,
      players: [{ id: 'g', position: 'VIKING' }],
      units,
      step: phase('g', 'movement'),
      options: { opt: { tribalSeaCrossings: true }, cfg },
      dice,
    });
    const crossing = engine.legalOrders(state, g).find((o) => o.type === 'seaCrossing');
    if (crossing?.type !== 'seaCrossing') throw new Error('no sea crossing');
    return { engine, state, crossing };
  };

  it('13.1.1: a tribal sea crossing loses the tribe on 4–6', () => {
    const { crossing } = crossingFrom([
      ['g', 'tribe', 'r0c0'],
      ['g', 'tribe', 'r2c2'],
    ]);
    expect(crossing.consequences).toEqual<Consequence[]>([
      { kind: 'mayBeLost', section: '13.1.1', unit: 'u1' as UnitId, chance: 0.5 },
    ]);
  });

  it("14.3, 13.1.1: the crossing of a horde's last tribe says the die can end the horde", () => {
    const { crossing } = crossingFrom([['g', 'tribe', 'r0c0']]);
    expect(crossing.consequences).toEqual<Consequence[]>([
      { kind: 'mayBeLost', section: '13.1.1', unit: 'u1' as UnitId, chance: 0.5 },
      { kind: 'hordeMayEndAtSea', section: '14.3', unit: 'u1' as UnitId, chance: 0.5 },
    ]);
  });

  it('14.3: a 4 loses that last tribe, and the administration phase ends the cycle as foreseen', () => {
    const { engine, state, crossing } = crossingFrom([['g', 'tribe', 'r0c0']], {}, [4]);
    const crossed = apply(engine, state, {
      type: 'seaCrossing',
      tribe: crossing.tribe,
      sea: crossing.sea,
      to: crossing.to[0]!,
    });
    expect(crossed.events.map((e) => e.type)).toEqual(['seaCrossingRolled', 'unitsRemoved']);
    let s = crossed.state;
    const seen: { type: string; reason?: string }[] = [];
    for (let i = 0; i < 10 && !seen.some((e) => e.type === 'cycleEnded'); i++) {
      const next = engine.legalOrders(s, g).find((o) => o.type === 'endPhase');
      if (!next) break;
      const r = apply(engine, s, { type: 'endPhase' });
      seen.push(...r.events);
      s = r.state;
    }
    expect(seen).toContainEqual(expect.objectContaining({ type: 'cycleEnded', reason: 'eliminated' }));
  });

  it('14.3 engine decision: with emptyBarbarianEndsCycle off, the last tribe risks only itself', () => {
    const { crossing } = crossingFrom([['g', 'tribe', 'r0c0']], { emptyBarbarianEndsCycle: false });
    expect(crossing.consequences?.map((c) => c.kind)).toEqual(['mayBeLost']);
  });

  it('consequences are advice: the order sent back without them is the same order', () => {
    const { engine, s: start } = firstMovement();
    const [first] = tribes(start);
    const end = endPhaseOf(engine.legalOrders(start, g));
    expect(end?.consequences).toBeDefined();
    // The legal order itself is accepted as sent (its advice is not part of the order).
    const r = engine.applyOrder(start, g, end as Order);
    expect(r.ok).toBe(true);
    expect(first).toBeDefined();
  });

  it('no consequences are computed outside the phases that have them', () => {
    const { engine, state } = scenario({
      map,
      players: [{ id: 'g', position: 'GERMAN 1' }],
      units: [['g', 'tribe', 'r3c3']],
      step: adminStep(['g']),
    });
    for (const o of engine.legalOrders(state, g)) expect('consequences' in o).toBe(false);
  });
});
