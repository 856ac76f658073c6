/**
 * Legal orders never lie: at a position, every concrete form of every order `legalOrders` lists
 * for a player (sampled up to `cap` per listed order) must be accepted by `applyOrder`, and
 * neither call may throw. `playListedCheck` plays a seeded game with every optional rule on and
 * checks every seat at sampled positions. Used by the property test and `engine check`.
 */
import type { Engine } from '../engine.ts';
import type { PlayerId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import { EVERY_OPTIONAL_RULE } from '../model/options.ts';
import type { Order } from '../model/orders.ts';
import type { GameState } from '../model/state.ts';
import { concreteOrders, expand } from '../turn/concrete-orders.ts';
import { simSetup } from './play.ts';
import { type Policy, seededChooser, simplePolicy } from './policy.ts';

interface ListedCheck {
  /** Concrete orders tried. */
  tried: number;
  problems: string[];
}

function checkListedOrders(engine: Engine, state: GameState, player: PlayerId, cap = 6): ListedCheck {
  const problems: string[] = [];
  let tried = 0;
  let listed: LegalOrder[];
  try {
    listed = engine.legalOrders(state, player);
  } catch (e) {
    return { tried, problems: [`turn ${state.turn}: legalOrders(${player}) threw ${String(e)}`] };
  }
  for (const legal of listed) {
    // Undo is covered by the contract tests; here it would only take back the previous order.
    if (legal.type === 'undo') continue;
    for (const order of concreteOrders(legal, cap)) {
      tried++;
      try {
        const r = engine.applyOrder(state, player, order);
        if (!r.ok)
          problems.push(
            `turn ${state.turn} ${state.step.kind}: ${player} listed ${JSON.stringify(order).slice(0, 400)} refused ${JSON.stringify(r.error).slice(0, 300)}`,
          );
      } catch (e) {
        problems.push(
          `turn ${state.turn}: ${player} ${JSON.stringify(order).slice(0, 300)} threw ${String(e)}`,
        );
      }
    }
  }
  return { tried, problems };
}

export interface ListedGame {
  readonly seed: string;
  readonly turns: number;
  readonly orders: number;
  readonly positions: number;
  readonly tried: number;
  readonly problems: readonly string[];
}

/**
 * One seeded game of `players` seats with every optional rule on, played by `policies` in turn
 * (seat i by policies[i % n]; `random` seats play a random legal order); every seat's listing is
 * checked every `every`-th order and at the first position of each step. A refused order of a policy is a problem too (it came from the
 * listing), and the game goes on with the missed-deadline default.
 */
export function playListedCheck(
  engine: Engine,
  seed: string,
  opts: {
    turns: number;
    players?: number;
    victory?: 'basic' | 'advanced';
    every?: number;
    cap?: number;
    policies?: readonly ((seed: string) => Policy | 'random')[];
  },
): ListedGame {
  const players = opts.players ?? 6;
  const every = opts.every ?? 25;
  const setup = simSetup(seed, players, { opt: EVERY_OPTIONAL_RULE, victory: opts.victory ?? 'basic' });
  const created = engine.createGame(setup);
  if (!created.ok) throw new Error(`bad setup ${created.error.code}`);
  let state = created.value;
  const makers = opts.policies ?? [(s: string) => simplePolicy(s), () => 'random' as const];
  const seats = state.players.map((p, i) => makers[i % makers.length]!(`${seed}:${p.id}`));
  const choose = seededChooser(`${seed}:random`);
  const problems: string[] = [];
  let orders = 0;
  let positions = 0;
  let tried = 0;
  let lastKind = '';
  while (state.turn <= opts.turns && orders < opts.turns * 3000 && problems.length < 20) {
    const player = engine.waitingFor(state)[0];
    if (!player) break;
    // Every `every`-th order, and the first position of each step (entries, economic and
    // administration phases list orders seen nowhere else).
    const kind = state.step.kind;
    if (orders % every === 0 || kind !== lastKind) {
      lastKind = kind;
      positions++;
      for (const p of state.players) {
        if (p.status === 'left') continue;
        const c = checkListedOrders(engine, state, p.id, opts.cap);
        tried += c.tried;
        problems.push(...c.problems);
      }
    }
    const seat = seats[state.players.findIndex((p) => p.id === player)]!;
    let order: Order | null;
    try {
      order =
        seat === 'random' ? randomListed(engine, state, player, choose) : seat.choose(engine, state, player);
    } catch (e) {
      problems.push(`turn ${state.turn}: choosing for ${player} threw ${String(e)}`);
      order = null;
    }
    let r = order ? engine.applyOrder(state, player, order) : null;
    if (order && r && !r.ok)
      problems.push(
        `turn ${state.turn} ${state.step.kind}: ${player} played ${JSON.stringify(order).slice(0, 400)} refused ${JSON.stringify(r.error).slice(0, 300)}`,
      );
    if (!r?.ok) {
      const fallback = engine.timeoutOrders(state, player)[0];
      if (!fallback) throw new Error(`${seed}: no order for ${player} at turn ${state.turn}`);
      r = engine.applyOrder(state, player, fallback);
      if (!r.ok) throw new Error(`${seed}: default refused ${JSON.stringify(fallback)}: ${r.error.code}`);
    }
    state = r.value.state;
    orders++;
  }
  return { seed, turns: state.turn - 1, orders, positions, tried, problems };
}

/** A random listed order, abandoning and undoing rarely (so the game goes somewhere). */
function randomListed(
  engine: Engine,
  state: GameState,
  player: PlayerId,
  choose: (n: number) => number,
): Order | null {
  const legal = engine
    .legalOrders(state, player)
    .filter((o) => o.type !== 'undo' && (o.type !== 'declareAbandon' || choose(300) === 0));
  for (let tries = 0; tries < 5 && legal.length; tries++) {
    const o = expand(legal[choose(legal.length)]!, choose);
    if (o) return o;
  }
  return null;
}
