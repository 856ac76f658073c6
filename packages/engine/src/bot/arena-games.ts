/**
 * The arena: seeded games between contestants (bot levels and the simulator's simple policy),
 * each seat played by its own contestant, and the statistics of their results — mean best-cycle
 * VP (14.3.1), mean advanced-victory average (14.3.2) and cycles reached, with 95% intervals over
 * games. Seats rotate from game to game so no contestant keeps the same seat. Pure: the CLI
 * (src/cli/arena.ts) prints.
 */
import type { Engine } from '../engine.ts';
import type { GameEvent } from '../model/events.ts';
import type { PlayerId } from '../model/ids.ts';
import type { Order } from '../model/orders.ts';
import { type RngState, rollDie, seedRng } from '../model/rng.ts';
import { simSetup } from '../sim/play.ts';
import { type Policy, simplePolicy } from '../sim/policy.ts';
import { budget, type Clock } from './clock.ts';
import { BOT_LEVELS, type BotLevel, createBot } from './levels.ts';

export const CONTESTANTS = ['sim', ...BOT_LEVELS] as const;
/** The optional rules that bring agreements into play (13.3 auction, 13.4, 13.6, 13.7), for `--options`. */
export const ARENA_OPTIONS = ['auction', 'mercenaries', 'optionalLeaders', 'tribute'] as const;
export type ArenaOption = (typeof ARENA_OPTIONS)[number];
export type Contestant = (typeof CONTESTANTS)[number];

interface SeatResult {
  readonly contestant: Contestant;
  readonly bestCycleVp: number;
  readonly average: number;
  readonly cycles: number;
  /** Kingdoms reached (cycles that got past the barbarian stage). */
  readonly kingdoms: number;
}

export interface GameResult {
  readonly seed: string;
  readonly turns: number;
  readonly seats: readonly SeatResult[];
  /** Wall time of each decision of each contestant, when the caller measures it. */
  readonly decisionMs: Readonly<Record<string, readonly number[]>>;
  /**
   * Agreements carried out, as `event payer>payee` contestants (13.3 auctions: winner>auctioneer,
   * 13.4 leases: hirer>owner, 13.6 ransoms: owner>captor, 13.7 tribute).
   */
  readonly agreements: Readonly<Record<string, number>>;
}

const policyOf = (c: Contestant, seed: string, clock?: () => Clock): Policy =>
  c === 'sim' ? simplePolicy(seed) : createBot(c as BotLevel, seed, clock);

/** Play one seeded game of `turns` game turns with this lineup (seat i ↦ lineup[i]). */
export function playArenaGame(
  engine: Engine,
  seed: string,
  lineup: readonly Contestant[],
  turns: number,
  now?: () => number,
  opt: readonly ArenaOption[] = [],
  /** Thinking time per bot decision (ms) on `now`'s clock; unbounded when omitted. */
  budgetMs?: number,
): GameResult {
  const clock = now && budgetMs !== undefined ? () => budget(now, budgetMs) : undefined;
  const setup = simSetup(seed, lineup.length, { opt: Object.fromEntries(opt.map((k) => [k, true])) });
  const created = engine.createGame(setup);
  if (!created.ok) throw new Error(`arena: bad setup ${created.error.code}`);
  let state = created.value;
  const seats = new Map<PlayerId, { contestant: Contestant; policy: Policy }>();
  for (const [i, p] of (setup.players ?? []).entries())
    seats.set(p.id as PlayerId, {
      contestant: lineup[i]!,
      policy: policyOf(lineup[i]!, `${seed}:${p.id}`, clock),
    });
  const decisionMs: Record<string, number[]> = {};
  const kingdomsOf = new Map<PlayerId, number>();
  const agreements: Record<string, number> = {};
  const who = (p: PlayerId) => seats.get(p)?.contestant ?? '?';
  const count = (events: readonly GameEvent[]) => {
    for (const e of events) {
      if (e.type === 'becameKingdom') kingdomsOf.set(e.player, (kingdomsOf.get(e.player) ?? 0) + 1);
      // Who paid whom: `kind payer>payee`.
      const pair =
        e.type === 'tributePaid'
          ? [e.from, e.to]
          : e.type === 'leaseStarted'
            ? [e.hirer, e.owner]
            : e.type === 'ransomPaid'
              ? [e.owner, e.captor]
              : e.type === 'unitAuctioned'
                ? [e.winner, e.auctioneer]
                : null;
      if (!pair) continue;
      const k = `${e.type} ${who(pair[0]!)}>${who(pair[1]!)}`;
      agreements[k] = (agreements[k] ?? 0) + 1;
    }
  };
  let orders = 0;
  while (state.turn <= turns && orders < turns * 4000) {
    const player = engine.waitingFor(state)[0];
    if (!player) break;
    const seat = seats.get(player)!;
    const t0 = now?.();
    let order: Order | null = seat.policy.choose(engine, state, player);
    if (now && t0 !== undefined) {
      const times = decisionMs[seat.contestant] ?? [];
      times.push(now() - t0);
      decisionMs[seat.contestant] = times;
    }
    let r = order ? engine.applyOrder(state, player, order) : null;
    if (!r?.ok) {
      // A refused choice is a bot bug; the game goes on with the missed-deadline default.
      order = engine.timeoutOrders(state, player)[0] ?? null;
      if (!order) throw new Error(`arena: no order for ${player} at turn ${state.turn}`);
      r = engine.applyOrder(state, player, order);
      if (!r.ok) throw new Error(`arena: default refused ${JSON.stringify(order)}: ${r.error.code}`);
    }
    state = r.value.state;
    count(r.value.events);
    orders++;
    // Orders given while others act (13.7 tribute), by every seat not waited for.
    for (const [id, other] of seats) {
      if (!other.policy.aside || engine.waitingFor(state).includes(id)) continue;
      const aside = other.policy.aside(engine, state, id);
      const ra = aside ? engine.applyOrder(state, id, aside) : null;
      if (!ra?.ok) continue;
      state = ra.value.state;
      count(ra.value.events);
    }
  }
  return {
    seed,
    turns: state.turn - 1,
    decisionMs,
    agreements,
    seats: state.players.map((p) => {
      const running = p.cycle?.vp ?? 0;
      const kingdoms = kingdomsOf.get(p.id) ?? 0;
      return {
        contestant: seats.get(p.id)!.contestant,
        bestCycleVp: Math.max(p.finished.bestVp, running),
        average: p.turnsPlayed ? (p.finished.totalVp + running) / p.turnsPlayed : 0,
        cycles: p.finished.count + (p.cycle ? 1 : 0),
        kingdoms,
      };
    }),
  };
}

/** Game g's lineup: the base lineup rotated by g seats. */
export const rotated = <T>(lineup: readonly T[], g: number): T[] =>
  lineup.map((_, i) => lineup[(i + g) % lineup.length]!);

export interface Interval {
  readonly mean: number;
  readonly low: number;
  readonly high: number;
  readonly n: number;
}

/** Mean with a normal-approximation 95% interval (n ≥ 30 games makes it fair). */
export function meanInterval(xs: readonly number[]): Interval {
  const n = xs.length;
  const mean = n ? xs.reduce((s, x) => s + x, 0) / n : 0;
  const sd = n > 1 ? Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : 0;
  const half = 1.96 * (sd / Math.sqrt(Math.max(1, n)));
  return { mean, low: mean - half, high: mean + half, n };
}

/**
 * Ratio of two contestants' means, paired by game, with a 95% percentile-bootstrap interval
 * (2000 resamples from a seeded PRNG: the same games give the same interval).
 */
export function ratioInterval(a: readonly number[], b: readonly number[], seed = 'arena'): Interval {
  const n = Math.min(a.length, b.length);
  const sum = (xs: readonly number[], idx: readonly number[]) => idx.reduce((s, i) => s + xs[i]!, 0);
  const all = Array.from({ length: n }, (_, i) => i);
  const ratio = (idx: readonly number[]) => sum(a, idx) / Math.max(1e-9, sum(b, idx));
  let rng: RngState = seedRng(seed);
  const pickIndex = () => {
    const [d, next] = rollDie(rng, n);
    rng = next;
    return d - 1;
  };
  const samples: number[] = [];
  for (let r = 0; r < 2000 && n > 0; r++) samples.push(ratio(Array.from({ length: n }, pickIndex)));
  samples.sort((x, y) => x - y);
  return {
    mean: n ? ratio(all) : 0,
    low: samples[Math.floor(0.025 * samples.length)] ?? 0,
    high: samples[Math.floor(0.975 * samples.length)] ?? 0,
    n,
  };
}
