/**
 * Playing whole games: `simulate` runs a policy for every waiting player until a turn limit,
 * recording every order (for the benchmark's replay) and summarising the result.
 */
import type { Engine } from '../engine.ts';
import { COLOURS } from '../model/colours.ts';
import type { GameEvent } from '../model/events.ts';
import type { PlayerId } from '../model/ids.ts';
import type { Order } from '../model/orders.ts';
import type { GameState } from '../model/state.ts';
import { standingOf } from '../realm/record.ts';
import type { GameSetupInput } from '../scenario/setup.ts';
import { type Policy, simplePolicy } from './policy.ts';

export interface SimSummary {
  seed: string;
  players: number;
  turnsPlayed: number;
  orders: number;
  hash: string;
  standings: {
    player: string;
    stage: string | null;
    position: string | null;
    vp: number;
    bestCycleVp: number;
    countdownStarted: number | null;
    cycles: number;
  }[];
}

export interface SimRun {
  summary: SimSummary;
  final: GameState;
  log: { actor: PlayerId; order: Order }[];
}

export const simSetup = (
  seed: string,
  players: number,
  options: GameSetupInput['options'] = {},
): GameSetupInput => ({
  seed,
  options,
  players: Array.from({ length: players }, (_, i) => ({
    id: `p${i + 1}`,
    name: `Player ${i + 1}`,
    seat: i,
    colour: COLOURS[i]!,
  })),
});

/** Play until `turns` game turns are complete (or the world goes idle). */
export function simulate(
  engine: Engine,
  setup: GameSetupInput,
  turns: number,
  policy: Policy = simplePolicy(`policy:${setup.seed}`),
  onEvents?: (events: GameEvent[]) => void,
  /** Sees every state the game passes through (size and shape checks over a long game). */
  onState?: (state: GameState) => void,
): SimRun {
  const created = engine.createGame(setup);
  if (!created.ok) throw new Error(`sim: bad setup: ${created.error.code}`);
  let state = created.value;
  const log: { actor: PlayerId; order: Order }[] = [];
  const maxOrders = turns * 2000;
  while (state.turn <= turns && log.length < maxOrders) {
    const waiting = engine.waitingFor(state);
    const player = waiting[0];
    if (!player) break;
    const order = policy.choose(engine, state, player) ?? engine.timeoutOrders(state, player)[0];
    if (!order) throw new Error(`sim: no order for ${player} at turn ${state.turn} (${state.step.kind})`);
    const r = engine.applyOrder(state, player, order);
    if (!r.ok) throw new Error(`sim: order refused ${JSON.stringify(order)}: ${r.error.code}`);
    state = r.value.state;
    log.push({ actor: player, order });
    onEvents?.(r.value.events);
    onState?.(state);
  }
  return { summary: summarise(engine, setup.seed, state, log.length), final: state, log };
}

export function summarise(engine: Engine, seed: string, state: GameState, orders: number): SimSummary {
  return {
    seed,
    players: state.players.length,
    turnsPlayed: Math.max(0, state.turn - 1),
    orders,
    hash: engine.hash(state),
    standings: state.players.map((p) => ({
      player: p.id,
      stage: p.cycle?.stage ?? null,
      position: p.cycle?.position ?? null,
      vp: p.cycle?.vp ?? 0,
      bestCycleVp: standingOf(p).bestCycle,
      countdownStarted: p.cycle?.countdownStartTurn ?? null,
      cycles: p.finished.count + (p.cycle ? 1 : 0),
    })),
  };
}
