/**
 * D-12, the part-1 rows (14.3.3 turn-record example, German 1): a horde of 16 tribes in the
 * administration phase of turn 4 starts its 6-turn countdown and becomes a kingdom in the
 * administration phase of turn 10 (D-4). Played through the whole turn machine from entry.
 */
import { describe, expect, it } from 'vitest';
import { createEngine, type GameState, type Order } from '../../src/index.ts';
import { gridMap } from '../helpers/fixture-map.ts';
import { A, P } from '../helpers/scenario.ts';

const map = gridMap({ rows: 8, cols: 8, starts: { r3c3: 'GERMAN 1' }, outside: [] });

/** The German's plan: split every tribe while below 16, spread the new tribes, never combine. */
function decide(engine: ReturnType<typeof createEngine>, s: GameState): Order {
  const legal = engine.legalOrders(s, P('g'));
  const step = s.step;
  const tribes = Object.values(s.units).filter((u) => u.owner === 'g');
  if (step.kind === 'entry') return { type: 'chooseStart', position: 'GERMAN 1', area: A('r3c3') };
  if (step.kind === 'playerTurn' && step.phase === 'growth' && tribes.length < 16) {
    const split = legal.find((o) => o.type === 'split');
    if (split && split.type === 'split') return split;
  }
  if (step.kind === 'playerTurn' && step.phase === 'movement') {
    // Spread: give every tribe its own area within one step (a bipartite matching, Kuhn's method).
    const moves = legal.filter((o) => o.type === 'move');
    const options = new Map(tribes.map((t) => [t.id as string, [t.area as string]]));
    // Only tribes that have not moved have destinations listed; a moved tribe keeps its area.
    for (const m of moves) options.get(m.unit)?.push(...m.destinations.map((d) => d.to));
    const owner = new Map<string, string>();
    const tryAssign = (id: string, seen: Set<string>): boolean => {
      for (const a of options.get(id) ?? []) {
        if (seen.has(a)) continue;
        seen.add(a);
        const holder = owner.get(a);
        if (holder === undefined || tryAssign(holder, seen)) {
          owner.set(a, id);
          return true;
        }
      }
      return false;
    };
    for (const t of tribes) tryAssign(t.id, new Set());
    for (const [area, id] of owner) {
      const t = s.units[id];
      if (t && t.area !== area && !step.moved.includes(t.id))
        return { type: 'move', unit: t.id, path: [A(area)] };
    }
  }
  const [first] = engine.timeoutOrders(s, P('g'));
  if (!first) throw new Error(`no order at ${JSON.stringify(step)}`);
  return first;
}

describe('D-12 part-1 rows: German 1 from entry to kingdom', () => {
  it('16 tribes in the admin phase of turn 4 → countdown; kingdom in the admin phase of turn 10', () => {
    const engine = createEngine(map);
    const created = engine.createGame({
      seed: 'd12',
      players: [{ id: 'g', name: 'German', seat: 0, colour: 'red' }],
    });
    if (!created.ok) throw new Error(created.error.code);
    let s = created.value;
    const events: { type: string }[] = [];
    while (s.turn <= 10 && events.every((e) => e.type !== 'becameKingdom')) {
      const r = engine.applyOrder(s, P('g'), decide(engine, s));
      if (!r.ok) throw new Error(r.error.code);
      events.push(...(r.value.events as { type: string }[]));
      s = r.value.state;
    }
    const countdown = events.find((e) => e.type === 'countdownStarted');
    expect(countdown).toMatchObject({ type: 'countdownStarted', turn: 4, units: 16, kingdomTurn: 10 });
    const kingdom = events.find((e) => e.type === 'becameKingdom');
    expect(kingdom).toMatchObject({ type: 'becameKingdom', turn: 10 });
    expect(s.players[0]?.cycle?.stage).toBe('kingdom');
    // 10.1: every tribe is removed on conversion.
    expect(Object.values(s.units).filter((u) => u.kind === 'tribe')).toEqual([]);
  });
});
