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
 * (anytime); every plan of a round is played on the same sample, and another plan replaces the
 * strong one only when its lead over it is clear of the dice's spread (`best`). The chosen plan's
 * orders are then given one by one, and the strong strategy takes over where one is no longer
 * accepted (a ship sunk on the way). In its combat phase (7) each decision to attack is searched
 * the same way (`combatSearch`): the strong choice, ending the phase, and each attack at its best
 * odds; every other phase is the strong strategy's.
 */
import type { Engine } from '../engine.ts';
import { columnRatio } from '../model/column-ratio.ts';
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
  /**
   * Rounds of samples when the clock never runs out (the engine has no clock of its own); below
   * MIN_ROUNDS the strong choice is always kept.
   */
  readonly unboundedRounds: number;
  /** Most orders a plan or a rollout may take (a bound on a runaway phase). */
  readonly maxOrders: number;
}

export const EXPERT_TASTE: ExpertTaste = { variants: 3, jitter: 0.8, unboundedRounds: 6, maxOrders: 400 };

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
const fightsNow = (state: GameState, player: PlayerId) =>
  state.step.kind === 'playerTurn' && state.step.phase === 'combat' && state.step.player === player;
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
      if (fightsNow(state, player)) {
        const mine = strong.choose(engine, state, player);
        if (!mine) return mine;
        const draw = `${seed}|${state.turn}|${choose(1_000_000)}`;
        return combatSearch(engine, state, player, mine, clock(), draw, taste);
      }
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
  const { plans, scores } = weigh(engine, state, me, clock, seed, taste);
  return [...best(plans, scores)];
}

/** The plans tried and each one's score in each round it was played (the tests compare them). */
export function weigh(
  engine: Engine,
  state: GameState,
  me: PlayerId,
  clock: Clock,
  seed: string,
  taste: ExpertTaste = EXPERT_TASTE,
): { plans: Plan[]; scores: number[][] } {
  const first = sampleFor(state, me, `${seed}|plans`);
  const plans: Plan[] = [planOf(engine, first, me, strongPolicy(`${seed}|p0`), taste)];
  const still: Order = { type: 'endPhase' };
  if (engine.applyOrder(first, me, still).ok) plans.push([still]);
  for (let v = 0; v < taste.variants && !clock.spent(); v++) {
    const shaken = strongPolicy(`${seed}|p${v + 1}`, undefined, { ...STRONG_TASTE, jitter: taste.jitter });
    const plan = planOf(engine, first, me, shaken, taste);
    if (!plans.some((p) => same(p, plan))) plans.push(plan);
  }
  const scores = sampleRounds(plans.length, clock, taste, (i, round) =>
    rollout(engine, sampleFor(state, me, `${seed}|r${round}`), me, plans[i]!, `${seed}|r${round}`, taste),
  );
  return { plans, scores };
}

/**
 * Each of `n` choices scored by `play` once a round, every choice of a round on the same sample,
 * for as long as the clock lasts (or `taste.unboundedRounds` rounds without one): the scores per
 * choice, one per round it was played in.
 */
function sampleRounds(
  n: number,
  clock: Clock,
  taste: ExpertTaste,
  play: (i: number, round: number) => number,
): number[][] {
  const scores: number[][] = Array.from({ length: n }, () => []);
  const bounded = clock !== UNBOUNDED;
  for (let round = 0; bounded || round < taste.unboundedRounds; round++) {
    for (let i = 0; i < n; i++) {
      if (clock.spent()) return scores;
      scores[i]!.push(play(i, round));
    }
  }
  return scores;
}

/**
 * The strong choice (first) unless another beat it clearly: over the rounds both were scored in
 * (each round one sample, the same for every choice, so the dice's luck cancels out in the
 * difference), its mean lead is more than twice its standard error. A lead the dice could give
 * by chance is not taken: a choice that only looked better on few samples would play worse than
 * the strong strategy it departs from.
 */
function best<T>(plans: T[], scores: number[][]): T {
  let pick = 0;
  let lead = 0;
  for (let i = 1; i < plans.length; i++) {
    const n = Math.min(scores[0]!.length, scores[i]!.length);
    if (n < MIN_ROUNDS) continue;
    const d = Array.from({ length: n }, (_, r) => scores[i]![r]! - scores[0]![r]!);
    const mean = d.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
    if (mean - 2 * (sd / Math.sqrt(n)) > 0 && mean > lead) {
      pick = i;
      lead = mean;
    }
  }
  return plans[pick]!;
}

/** Fewest rounds on which a choice may be preferred to the strong one. */
const MIN_ROUNDS = 4;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

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
  return playOut(engine, s, me, seed, taste);
}

/** The rest of `me`'s player turn played by the strong strategy for every seat; what it then holds. */
function playOut(engine: Engine, from: GameState, me: PlayerId, seed: string, taste: ExpertTaste): number {
  let s = from;
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

/**
 * A combat decision (7): the strong strategy's choice, ending the phase, and each attack it may
 * make now at its best odds, each played on fresh samples through the rest of the player turn;
 * the strong choice unless another is clearly better (`best`). Choices the combat owes (a
 * retreat, a loss to take, an advance) are the strong strategy's alone.
 */
export function combatSearch(
  engine: Engine,
  state: GameState,
  me: PlayerId,
  mine: Order,
  clock: Clock,
  seed: string,
  taste: ExpertTaste = EXPERT_TASTE,
): Order {
  const legal = engine.legalOrders(state, me);
  if (!legal.some((o) => o.type === 'combatAttack')) return mine;
  if (legal.some((o) => o.type !== 'combatAttack' && o.type !== 'combatDone' && o.type !== 'endPhase'))
    return mine;
  const choices: Order[] = [mine];
  const add = (o: Order) => {
    if (!choices.some((c) => same(c, o))) choices.push(o);
  };
  if (legal.some((o) => o.type === 'combatDone')) add({ type: 'combatDone' } as Order);
  for (const a of legal) {
    if (a.type !== 'combatAttack') continue;
    const top = [...a.choices].sort((x, y) => columnRatio(y.odds) - columnRatio(x.odds))[0];
    if (top) add({ type: 'combatAttack', target: a.target, attackers: top.attackers } as Order);
  }
  if (choices.length < 2) return mine;
  const scores = sampleRounds(choices.length, clock, taste, (i, round) => {
    const r = engine.applyOrder(sampleFor(state, me, `${seed}|c${round}`), me, choices[i]!);
    return r.ok ? playOut(engine, r.value.state, me, `${seed}|c${round}`, taste) : -Infinity;
  });
  return best(choices, scores);
}
