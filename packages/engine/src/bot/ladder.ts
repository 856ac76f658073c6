/**
 * A ladder of contestants from arena games: Bradley–Terry strengths fitted to the pairwise
 * finishing order within each game (each pair of seats of different contestants is one match,
 * won by the higher best-cycle VP, 14.3.1; a tie is half a win each), shown on the Elo scale
 * (400 · log10 of the strength, the contestants' mean at 1500), with 95% intervals from a seeded
 * bootstrap over games (games are the independent samples). Fitted by the MM algorithm (Hunter,
 * "MM algorithms for generalized Bradley–Terry models", 2004) with half a win each way added
 * between every pair that met, so that a contestant that always won or always lost still gets a
 * finite rating. Hand-written: a fit of a handful of contestants is a few lines, and no maintained
 * package in the lockfile does it.
 */
import { type RngState, rollDie, seedRng } from '../model/rng.ts';
import type { GameResult } from './arena-games.ts';

export interface Rung {
  readonly contestant: string;
  readonly rating: number;
  readonly low: number;
  readonly high: number;
  /** Mean best-cycle VP over the contestant's seats (14.3.1). */
  readonly meanBestCycleVp: number;
  readonly seats: number;
}

type Wins = Map<string, Map<string, number>>;

function matches(games: readonly GameResult[]): Wins {
  const wins: Wins = new Map();
  const add = (a: string, b: string, w: number) => {
    const row = wins.get(a) ?? new Map<string, number>();
    row.set(b, (row.get(b) ?? 0) + w);
    wins.set(a, row);
  };
  for (const g of games)
    for (let i = 0; i < g.seats.length; i++)
      for (let j = i + 1; j < g.seats.length; j++) {
        const a = g.seats[i]!;
        const b = g.seats[j]!;
        if (a.contestant === b.contestant) continue;
        const w = a.bestCycleVp > b.bestCycleVp ? 1 : a.bestCycleVp < b.bestCycleVp ? 0 : 0.5;
        add(a.contestant, b.contestant, w);
        add(b.contestant, a.contestant, 1 - w);
      }
  return wins;
}

/** Elo-scale ratings (mean 1500) of every contestant in the games. */
export function bradleyTerry(games: readonly GameResult[]): Map<string, number> {
  const wins = matches(games);
  const names = [...new Set(games.flatMap((g) => g.seats.map((s) => s.contestant)))].sort();
  const w = (a: string, b: string) =>
    (wins.get(a)?.get(b) ?? 0) + (wins.has(a) && wins.get(a)!.has(b) ? 0.5 : 0);
  const p = new Map(names.map((n) => [n, 1]));
  for (let it = 0; it < 500; it++) {
    for (const i of names) {
      let won = 0;
      let denom = 0;
      for (const j of names) {
        if (i === j) continue;
        const n = w(i, j) + w(j, i);
        if (n === 0) continue;
        won += w(i, j);
        denom += n / (p.get(i)! + p.get(j)!);
      }
      if (denom > 0) p.set(i, won / denom);
    }
    const logMean = names.reduce((s, n) => s + Math.log(p.get(n)!), 0) / Math.max(1, names.length);
    for (const n of names) p.set(n, Math.exp(Math.log(p.get(n)!) - logMean));
  }
  return new Map(names.map((n) => [n, 1500 + 400 * Math.log10(p.get(n)!)]));
}

/** The ladder, strongest first, with bootstrap intervals (`resamples` seeded draws of the games). */
export function ladder(games: readonly GameResult[], resamples = 200, seed = 'ladder'): Rung[] {
  const fit = bradleyTerry(games);
  let rng: RngState = seedRng(seed);
  const draw = () => {
    const [d, next] = rollDie(rng, games.length);
    rng = next;
    return games[d - 1]!;
  };
  const samples = new Map<string, number[]>([...fit.keys()].map((k) => [k, []]));
  for (let r = 0; r < resamples && games.length > 1; r++) {
    const again = bradleyTerry(Array.from({ length: games.length }, draw));
    for (const [k, v] of again) samples.get(k)?.push(v);
  }
  const rungs: Rung[] = [];
  for (const [contestant, rating] of fit) {
    const xs = (samples.get(contestant) ?? []).sort((a, b) => a - b);
    const seats = games.flatMap((g) => g.seats.filter((s) => s.contestant === contestant));
    rungs.push({
      contestant,
      rating,
      low: xs[Math.floor(0.025 * xs.length)] ?? rating,
      high: xs[Math.floor(0.975 * xs.length)] ?? rating,
      meanBestCycleVp: seats.reduce((s, x) => s + x.bestCycleVp, 0) / Math.max(1, seats.length),
      seats: seats.length,
    });
  }
  return rungs.sort((a, b) => b.rating - a.rating);
}
