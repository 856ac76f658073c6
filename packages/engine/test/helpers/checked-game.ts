/**
 * One whole game played by the sim policy (the deadline default when it has nothing to say), with
 * every invariant of `invariants.ts` checked after every order: the loop shared by the
 * scripts (acceptance-sim.ts, naval-sim.ts). Throws at the first dead end, refusal or broken invariant.
 */
import type { Engine, GameEvent, GameSetupInput, GameState, Order, PlayerId } from '../../src/index.ts';
import { simplePolicy } from '../../src/sim/policy.ts';
import { unguardedCities } from './city-guard.ts';
import { problemsOf } from './invariants.ts';

export function playChecked(
  engine: Engine,
  setup: GameSetupInput,
  turns: number,
  onOrder: (order: Order, events: readonly GameEvent[], state: GameState) => void = () => {},
): { state: GameState; orders: number } {
  const created = engine.createGame(setup);
  if (!created.ok) throw new Error(created.error.code);
  let state = created.value;
  const policy = simplePolicy(`policy:${setup.seed}`);
  const vp = new Map<string, number>();
  let orders = 0;
  while (state.turn <= turns && orders < turns * 2000) {
    const player = engine.waitingFor(state)[0] as PlayerId | undefined;
    if (!player) throw new Error(`dead end at turn ${state.turn} (${state.step.kind})`);
    const order: Order | undefined =
      policy.choose(engine, state, player) ?? engine.timeoutOrders(state, player)[0];
    if (!order) throw new Error(`no order for ${player} at turn ${state.turn} (${state.step.kind})`);
    const r = engine.applyOrder(state, player, order);
    if (!r.ok) throw new Error(`order refused ${JSON.stringify(order)}: ${JSON.stringify(r.error)}`);
    state = r.value.state;
    orders++;
    const bad = [...problemsOf(state, vp), ...unguardedCities(engine.map, state)];
    if (bad.length) throw new Error(`turn ${state.turn} after ${JSON.stringify(order)}: ${bad.join('; ')}`);
    onOrder(order, r.value.events, state);
  }
  return { state, orders };
}
