/**
 * 14.3.1 "Game length: set in advance, or play until a set time": the server's `endWorld` order
 * stops a game where it stands (docs/rules-decisions.md, "A world's end"). It is the server's
 * alone, records the standings it ends on, and leaves nobody waited for.
 */
import { describe, expect, it } from 'vitest';
import { createEngine, type GameState, standingsOf } from '../../src/index.ts';
import { simSetup, simulate } from '../../src/sim/play.ts';
import { deepFreeze } from '../helpers/play.ts';
import { WORLD } from '../helpers/world-map.ts';

const engine = createEngine(WORLD);

describe('endWorld (14.3.1 game length)', () => {
  const played: GameState = simulate(engine, simSetup('ending', 3), 3).final;

  it('ends the game where it stands, with the standings it ends on', () => {
    const r = engine.applyOrder(deepFreeze(played), 'system', { type: 'endWorld', reason: 'turnLimit' });
    if (!r.ok) throw new Error(r.error.code);
    expect(r.value.events).toEqual([
      { type: 'worldEnded', turn: played.turn, reason: 'turnLimit', standings: standingsOf(played) },
    ]);
    expect(r.value.state.step.kind).toBe('idle');
    expect(engine.waitingFor(r.value.state)).toEqual([]);
    // Nothing else changed: the VP and the cycles stand as they were (14.3.1: VP are never lost).
    expect(standingsOf(r.value.state)).toEqual(standingsOf(played));
    expect(r.value.state.turn).toBe(played.turn);
  });

  it("is the server's order, never a player's", () => {
    const p = played.players[0]?.id;
    if (!p) throw new Error('no player');
    const r = engine.applyOrder(played, p, { type: 'endWorld', reason: 'date' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('system/only_system');
  });
});
