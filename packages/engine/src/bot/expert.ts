/**
 * The expert: the strong strategy (strong.ts), with a search over whole movement phases. At the
 * first decision of its movement phase it makes a few plans for the phase on a sample of what its
 * seat may see (sample.ts): the strong plan, standing still, and strong plans with their moves'
 * gains shaken (other plausible concentrations). Each plan is played on fresh samples (new dice
 * each time, others' sealed plans and bids not known) through the rest of its player turn — its
 * combat phase (7), with every seat asked for its choices played by the strong strategy — and
 * scored on what it then holds: its running cycle's VP (14.3.1), the cities it owns or stands in
 * (taxed at the next economic phase, 10.3), its units' strength, and what of it is exposed to
 * stronger enemy units next to it. Rounds of samples go on while the decision's budget lasts
 * (anytime: the strong plan is scored first, and is kept when no other has been scored as often);
 * the best plan's orders are then given one by one, and the strong strategy takes over where one
 * is no longer accepted (a ship sunk on the way) and for every other phase.
 */
import type { Engine } from '../engine.ts';
import type { PlayerId } from '../model/ids.ts';
import type { Order } from '../model/orders.ts';
import type { GameState } from '../model/state.ts';
import { strengthOf } from '../model/units.ts';
import type { Policy } from '../sim/policy.ts';
import { seededChooser } from '../sim/policy.ts';
import { readBoard, threat } from './board-facts.ts';
import { type Clock, UNBOUNDED } from './clock.ts';
import { sampleFor } from './sample.ts';
import { STRONG_TASTE, strongPolicy } from './strong.ts';

export interface ExpertTaste {
  /** Plans besides the strong one and standing still: strong plans with shaken gains. */
  readonly variants: number;
  /** How far the shaken plans' gains are spread (a factor in 1 ± jitter / 2). */
  readonly jitter: number;
  /** Rounds of samples when the clock never runs out (the engine has no clock of its own). */
  readonly unboundedRounds: number;
  /** Most orders a plan or a rollout may take (a bound on a runaway phase). */
  readonly maxOrders: number;
}

export const EXPERT_TASTE: ExpertTaste = { variants: 3, jitter: 0.8, unboundedRounds: 3, maxOrders: 400 };

export type Plan = Order[];

/**
 * The expert as a policy, and the hook for a caller that searches elsewhere (the server, on a
 * worker thread): `wantsPlan` says a search is due at this decision; `adopt` hands in its plan,
 * which `choose` then follows as if it had searched itself.
 */
export interface ExpertPolicy extends Policy {
  wantsPlan(state: GameState, player: PlayerId): boolean;
  adopt(state: GameState, player: PlayerId, plan: Plan): void;
}

const planKey = (state: GameState, player: PlayerId) => `${state.turn}|${player}`;
const searchesNow = (state: GameState, player: PlayerId) =>
  state.step.kind === 'playerTurn' && state.step.phase === 'movement' && state.step.player === player;

export function expertPolicy(
  seed: string,
  clock: () => Clock = () => UNBOUNDED,
  taste: ExpertTaste = EXPERT_TASTE,
): ExpertPolicy {
  const strong = strongPolicy(seed, clock);
  const choose = seededChooser(`${seed}|expert`);
  let chosen: { key: string; orders: Plan } | null = null;
  return {
    aside: strong.aside,
    wantsPlan: (state, player) => searchesNow(state, player) && chosen?.key !== planKey(state, player),
    adopt(state, player, plan) {
      chosen = { key: planKey(state, player), orders: [...plan] };
    },
    choose(engine, state, player) {
      if (!searchesNow(state, player)) return strong.choose(engine, state, player);
      const key = planKey(state, player);
      if (chosen?.key !== key) {
        const draw = `${seed}|${state.turn}|${choose(1_000_000)}`;
        chosen = { key, orders: search(engine, state, player, clock(), draw, taste) };
      }
      const next = chosen.orders.shift();
      if (next && engine.applyOrder(state, player, next).ok) return next;
      chosen.orders = [];
      return strong.choose(engine, state, player);
    },
  };
}

/** The best whole-phase plan found within the clock. */
export function search(
  engine: Engine,
  state: GameState,
  me: PlayerId,
  clock: Clock,
  seed: string,
  taste: ExpertTaste = EXPERT_TASTE,
): Plan {
  const { plans, total, runs } = weigh(engine, state, me, clock, seed, taste);
  return best(plans, total, runs);
}

/** The plans tried and each one's total score over its runs (the tests compare them). */
export function weigh(
  engine: Engine,
  state: GameState,
  me: PlayerId,
  clock: Clock,
  seed: string,
  taste: ExpertTaste = EXPERT_TASTE,
): { plans: Plan[]; total: number[]; runs: number[] } {
  const first = sampleFor(state, me, `${seed}|plans`);
  const plans: Plan[] = [planOf(engine, first, me, strongPolicy(`${seed}|p0`), taste)];
  const still: Order = { type: 'endPhase' };
  if (engine.applyOrder(first, me, still).ok) plans.push([still]);
  for (let v = 0; v < taste.variants && !clock.spent(); v++) {
    const shaken = strongPolicy(`${seed}|p${v + 1}`, undefined, { ...STRONG_TASTE, jitter: taste.jitter });
    const plan = planOf(engine, first, me, shaken, taste);
    if (!plans.some((p) => same(p, plan))) plans.push(plan);
  }
  const total = plans.map(() => 0);
  const runs = plans.map(() => 0);
  const bounded = clock !== UNBOUNDED;
  for (let round = 0; bounded || round < taste.unboundedRounds; round++) {
    for (let i = 0; i < plans.length; i++) {
      if (clock.spent()) return { plans, total, runs };
      const sample = sampleFor(state, me, `${seed}|r${round}`);
      total[i]! += rollout(engine, sample, me, plans[i]!, `${seed}|r${round}`, taste);
      runs[i]!++;
    }
  }
  return { plans, total, runs };
}

/** The plan scored most often with the best mean; the strong plan (first) when none is ahead. */
function best(plans: Plan[], total: number[], runs: number[]): Plan {
  const most = Math.max(...runs);
  let pick = 0;
  for (let i = 1; i < plans.length; i++) {
    if (runs[i] !== most || most === 0) continue;
    if (runs[pick] !== most || total[i]! > total[pick]!) pick = i;
  }
  return [...plans[pick]!];
}

const same = (a: Plan, b: Plan) => JSON.stringify(a) === JSON.stringify(b);

const inMovement = (s: GameState, me: PlayerId) =>
  s.step.kind === 'playerTurn' && s.step.phase === 'movement' && s.step.player === me;
const inTurn = (s: GameState, me: PlayerId) => s.step.kind === 'playerTurn' && s.step.player === me;

/** The orders a policy gives for the rest of this movement phase, played on a sample. */
function planOf(engine: Engine, sample: GameState, me: PlayerId, policy: Policy, taste: ExpertTaste): Plan {
  const plan: Plan = [];
  let s = sample;
  while (inMovement(s, me) && plan.length < taste.maxOrders && engine.waitingFor(s).includes(me)) {
    const order = policy.choose(engine, s, me);
    const r = order ? engine.applyOrder(s, me, order) : null;
    if (!order || !r?.ok) break;
    plan.push(order);
    s = r.value.state;
  }
  return plan;
}

/** A plan played on a sample, then the rest of the player turn by the strong strategy; its score. */
function rollout(
  engine: Engine,
  sample: GameState,
  me: PlayerId,
  plan: Plan,
  seed: string,
  taste: ExpertTaste,
): number {
  let s = sample;
  for (const order of plan) {
    if (!inMovement(s, me)) break;
    const r = engine.applyOrder(s, me, order);
    if (!r.ok) break;
    s = r.value.state;
  }
  const players = new Map<PlayerId, Policy>();
  for (let n = 0; inTurn(s, me) && n < taste.maxOrders; n++) {
    const p = engine.waitingFor(s)[0];
    if (!p) break;
    let policy = players.get(p);
    if (!policy) {
      policy = strongPolicy(`${seed}|${p}`);
      players.set(p, policy);
    }
    const order = policy.choose(engine, s, p) ?? engine.timeoutOrders(s, p)[0];
    const r = order ? engine.applyOrder(s, p, order) : null;
    if (!r?.ok) break;
    s = r.value.state;
  }
  return score(engine, s, me);
}

/** What a position is worth to `me` at the end of its player turn. */
function score(engine: Engine, s: GameState, me: PlayerId): number {
  const player = s.players.find((p) => p.id === me);
  const vp = player?.cycle?.vp ?? 0;
  const board = readBoard(engine, s, me);
  const tax = (a: string) => engine.map.area(a as never)?.city?.tax ?? 0;
  const held = new Set<string>(board.owned);
  for (const u of board.mine) if (engine.map.area(u.area)?.city) held.add(u.area);
  let strength = 0;
  let exposed = 0;
  const here = new Map<string, number>();
  for (const u of board.mine) here.set(u.area, (here.get(u.area) ?? 0) + strengthOf(u.kind, s.options));
  for (const [area, mine] of here) {
    strength += mine;
    if (threat(board, s, area as never, 1) > 2 * mine) exposed += mine;
  }
  const leaders = Object.values(s.units).filter((u) => u.owner === me && u.kind === 'leader').length;
  return vp + 2 * [...held].reduce((sum, a) => sum + tax(a), 0) + strength - 0.5 * exposed + 3 * leaders;
}
