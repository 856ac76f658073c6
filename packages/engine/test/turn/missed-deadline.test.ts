/**
 * A missed deadline (4: the step ends when its time is up): `missedDeadline` plays each waiting
 * player's defaults once, in turn, each seeing the state the previous left, and returns every order
 * with the state and events it left — the same as applying `timeoutOrders` one by one through the
 * contract, so a server can commit them without playing them again.
 */
import { describe, expect, it } from 'vitest';
import { createEngine, type GameState, simplePolicy, simSetup } from '../../src/index.ts';

const engine = createEngine();

/** A three-player game played by the sim policy until several players are waited for at once. */
function economicPhase(): GameState {
  const created = engine.createGame(simSetup('missed-deadline', 3));
  if (!created.ok) throw new Error(created.error.code);
  let state = created.value;
  const policy = simplePolicy('missed-deadline');
  for (let i = 0; i < 2000; i++) {
    const waiting = engine.waitingFor(state);
    if (waiting.length > 1 && state.turn >= 2) return state;
    const p = waiting[0];
    if (!p) break;
    const order = policy.choose(engine, state, p) ?? engine.timeoutOrders(state, p)[0];
    const r = engine.applyOrder(state, p, order);
    if (!r.ok) throw new Error(r.error.code);
    state = r.value.state;
  }
  throw new Error('no step with several players waited for');
}

describe('4: the defaults of a missed deadline', () => {
  it('plays every waiting player’s defaults once, as applying them one by one would', () => {
    const state = economicPhase();
    const waiting = engine.waitingFor(state);
    const played = engine.missedDeadline(state, waiting);
    expect(new Set(played.map((d) => d.actor))).toEqual(new Set(waiting));
    let s = state;
    for (const d of played) {
      const r = engine.applyOrder(s, d.actor, d.order);
      if (!r.ok) throw new Error(r.error.code);
      expect(engine.hash(d.state)).toBe(engine.hash(r.value.state));
      expect(d.events).toEqual(r.value.events);
      s = r.value.state;
    }
    // The same orders as each player's `timeoutOrders`, asked in turn on the state the previous left.
    let t = state;
    const expected = waiting.flatMap((p) => {
      const orders = engine.timeoutOrders(t, p);
      for (const o of orders) {
        const r = engine.applyOrder(t, p, o);
        if (r.ok) t = r.value.state;
      }
      return orders;
    });
    expect(played.map((d) => d.order)).toEqual(expected);
    expect(played.length).toBeGreaterThan(1);
  });
});
