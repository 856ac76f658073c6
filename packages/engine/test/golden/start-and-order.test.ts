/** 4.1 move order, 4.2 / 9 intro start positions (D-17), 14.3 entry and leaving. */
import { describe, expect, it } from 'vitest';
import { createEngine, type GameState, type StartPosition } from '../../src/index.ts';
import { moveOrder } from '../../src/model/queries.ts';
import { startAreasFor } from '../../src/scenario/cycles.ts';
import { gridMap } from '../helpers/fixture-map.ts';
import { deepFreeze } from '../helpers/play.ts';
import { P, scenario } from '../helpers/scenario.ts';
import avail from './start-availability.json';

const map = gridMap({
  rows: 3,
  cols: 4,
  starts: { r1c1: 'GERMAN 1', r0c3: 'VIKING', r2c3: 'SLAV 1' },
  deserts: ['r0c1'],
  outside: ['r1c1', 'r0c3', 'r2c3'],
});

describe(`D-17 start-position availability (${avail.source})`, () => {
  for (const c of avail.cases) {
    it(`GERMAN 1 held by ${c.holder ?? 'nobody'}${c.stage ? ` (${c.stage})` : ''} → may choose: ${c.mayChoose}`, () => {
      const players = c.holder
        ? [{ id: 'a', position: 'GERMAN 1' as StartPosition, stage: c.stage as 'barbarian' }, { id: 'b' }]
        : [{ id: 'b' }];
      const { state, ctx } = scenario({ map, turn: 2, players, neutrals: {} });
      expect(startAreasFor(ctx, state, P('b'), 'GERMAN 1').length > 0).toBe(c.mayChoose);
    });
  }

  it('an occupied start area moves the tribe to a free adjacent land area; none free → unusable this turn', () => {
    const crowded = scenario({
      map,
      turn: 2,
      players: [{ id: 'a', position: 'SLAV 1' }, { id: 'b' }],
      units: [['a', 'tribe', 'r1c1']],
      neutrals: {},
    });
    // r0c1 is desert (no tribes, 9.3.1): r1c0, r1c2, r2c1 remain.
    expect(startAreasFor(crowded.ctx, crowded.state, P('b'), 'GERMAN 1')).toEqual(['r1c0', 'r1c2', 'r2c1']);
    const full = scenario({
      map,
      turn: 2,
      players: [{ id: 'a', position: 'SLAV 1' }, { id: 'b' }],
      units: [
        ['a', 'tribe', 'r1c1'],
        ['a', 'tribe', 'r1c0'],
        ['a', 'tribe', 'r1c2'],
      ],
      neutrals: { r2c1: 2 },
    });
    expect(startAreasFor(full.ctx, full.state, P('b'), 'GERMAN 1')).toEqual([]);
  });

  it('13.2.1: with the Viking modifications, VIKING is closed on turns 1–2 and open from turn 3', () => {
    for (const [turn, open] of [
      [1, false],
      [2, false],
      [3, true],
    ] as const) {
      const s = scenario({
        map,
        turn,
        players: [{ id: 'b' }],
        options: { opt: { vikingModifications: true } },
        neutrals: {},
      });
      expect(startAreasFor(s.ctx, s.state, P('b'), 'VIKING').length > 0).toBe(open);
    }
    const off = scenario({ map, turn: 1, players: [{ id: 'b' }], neutrals: {} });
    expect(startAreasFor(off.ctx, off.state, P('b'), 'VIKING')).toEqual(['r0c3']);
  });
});

describe('4.1 move order and 14.3 entry', () => {
  const engine = createEngine(map);
  const setup = {
    seed: 'order',
    players: [
      { id: 'a', name: 'A', seat: 0, colour: 'red' as const },
      { id: 'b', name: 'B', seat: 1, colour: 'blue' as const },
    ],
  };

  it('starters roll 2d6 and choose in descending order; the newest cycle moves first', () => {
    const g = engine.createGame(setup);
    expect(g.ok).toBe(true);
    if (!g.ok) return;
    const s = g.value;
    expect(s.step.kind).toBe('entry');
    if (s.step.kind !== 'entry') return;
    const [first, second] = s.step.queue;
    expect(s.step.rolls[first!]!).toBeGreaterThan(s.step.rolls[second!]!);
    expect(engine.waitingFor(s)).toEqual([first]);
    // The second player may not choose yet (not their turn).
    const early = engine.applyOrder(s, second!, { type: 'chooseStart', position: 'SLAV 1', area: 'r2c3' });
    expect(early.ok).toBe(false);
    if (!early.ok) expect(early.error.code).toBe('order/not_your_turn');
    let t: GameState = s;
    for (const [p, pos, area] of [
      [first!, 'GERMAN 1', 'r1c1'],
      [second!, 'SLAV 1', 'r2c3'],
    ] as const) {
      const r = engine.applyOrder(t, p, { type: 'chooseStart', position: pos, area });
      expect(r.ok).toBe(true);
      if (r.ok) t = r.value.state;
    }
    expect(t.order).toEqual([first, second]);
    // A later starter moves ahead of both (4.1: newest first).
    const later: GameState = {
      ...t,
      players: t.players.map((p) =>
        p.id === second ? { ...p, cycle: p.cycle && { ...p.cycle, startedTurn: 5 } } : p,
      ),
    };
    expect(moveOrder(later)).toEqual([second, first]);
  });

  it('a player joining mid-game enters at the next turn start; leaving frees the position and the step', () => {
    const g = engine.createGame({ ...setup, players: [setup.players[0]!] });
    if (!g.ok) throw new Error(g.error.code);
    const chose = engine.applyOrder(g.value, P('a'), {
      type: 'chooseStart',
      position: 'GERMAN 1',
      area: 'r1c1',
    });
    if (!chose.ok) throw new Error(chose.error.code);
    const joined = engine.applyOrder(chose.value.state, 'system', {
      type: 'join',
      player: 'b',
      name: 'B',
      seat: 1,
      colour: 'blue',
    });
    expect(joined.ok).toBe(true);
    if (!joined.ok) return;
    const b = joined.value.state.players.find((p) => p.id === 'b');
    expect(b?.status).toBe('waiting');
    expect(b?.joinedTurn).toBe(2);
    const notSystem = engine.applyOrder(chose.value.state, P('a'), { type: 'leave', player: 'a' });
    expect(notSystem.ok).toBe(false);
    const left = engine.applyOrder(joined.value.state, 'system', { type: 'leave', player: 'a' });
    expect(left.ok).toBe(true);
    if (!left.ok) return;
    expect(left.value.state.players.find((p) => p.id === 'a')?.status).toBe('left');
    expect(Object.values(left.value.state.units).filter((u) => u.owner === 'a')).toEqual([]);
    expect(left.value.events).toContainEqual(
      expect.objectContaining({ type: 'cycleEnded', player: 'a', reason: 'left' }),
    );
  });

  it('never mutates its input (deep-frozen states)', () => {
    const g = engine.createGame(setup);
    if (!g.ok) throw new Error(g.error.code);
    const frozen = deepFreeze(g.value);
    const first = engine.waitingFor(frozen)[0]!;
    const orders = engine.timeoutOrders(frozen, first);
    expect(orders.length).toBeGreaterThan(0);
    const r = engine.applyOrder(frozen, first, orders[0]);
    expect(r.ok).toBe(true);
  });
});
