/**
 * `npm run -s arena -- [--games 30] [--turns 120] [--lineup strong,strong,strong,sim,sim,sim]
 * [--seed arena] [--jobs 2] [--options auction,mercenaries,optionalLeaders,tribute]`: plays seeded games between bot levels and the simulator's simple
 * policy (src/bot/arena-games.ts) and prints, per contestant, mean best-cycle VP (14.3.1), mean
 * advanced-victory average (14.3.2), cycles and kingdoms reached, each with a 95% interval over
 * games, the ratio of the first contestant's best-cycle VP to the last's, decision times, and the
 * agreements carried out (leases, auctions, ransoms, tribute) when `--options` turns them on.
 * `--jobs` plays games in that many child processes (`--game N` plays one and prints JSON).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  ARENA_OPTIONS,
  CONTESTANTS,
  type Contestant,
  type GameResult,
  meanInterval,
  playArenaGame,
  ratioInterval,
  rotated,
} from '../bot/arena-games.ts';
import { ladder } from '../bot/ladder.ts';
import { BOT_LEVELS } from '../bot/level-names.ts';
import { botRatingsSchema } from '../bot/ratings.ts';
import { createEngine } from '../engine.ts';
import { loadMapForCli } from './load-map.ts';

const ARG_OPTIONS = {
  games: { type: 'string' },
  turns: { type: 'string' },
  lineup: { type: 'string' },
  seed: { type: 'string' },
  jobs: { type: 'string' },
  game: { type: 'string' },
  map: { type: 'string' },
  options: { type: 'string' },
  'budget-ms': { type: 'string' },
  'ratings-out': { type: 'string' },
} as const;

const argsSchema = z.object({
  games: z.coerce.number().int().min(1).max(1000).default(30),
  turns: z.coerce.number().int().min(1).max(1000).default(120),
  lineup: z
    .string()
    .default('strong,strong,strong,sim,sim,sim')
    .transform((s) => s.split(','))
    .pipe(z.array(z.enum(CONTESTANTS)).min(1).max(6)),
  seed: z
    .string()
    .regex(/^[\w.-]{1,40}$/)
    .default('arena'),
  jobs: z.coerce.number().int().min(1).max(16).default(1),
  game: z.coerce.number().int().min(0).max(999).optional(),
  map: z.string().optional(),
  options: z
    .string()
    .default('')
    .transform((s) => s.split(',').filter(Boolean))
    .pipe(z.array(z.enum(ARENA_OPTIONS))),
  'budget-ms': z.coerce.number().int().min(1).max(60_000).optional(),
  'ratings-out': z.string().min(1).optional(),
});

const USAGE = `usage: npm run -s arena -- [--games 30] [--turns 120] [--lineup strong,strong,strong,sim,sim,sim]
                          [--seed arena] [--jobs 2] [--map <file>] [--options ${ARENA_OPTIONS.join(',')}]
                          [--budget-ms 100] [--ratings-out packages/engine/src/bot/ratings.json]
  Plays seeded games between bot levels (${CONTESTANTS.join(', ')}) and prints each contestant's
  mean best-cycle VP, advanced-victory average, cycles and kingdoms with 95% intervals;
  --options turns on optional rules that bring agreements into play (all off by default);
  --budget-ms bounds each bot decision's thinking time (the expert searches until it is spent);
  prints a ladder (Bradley-Terry on the Elo scale from the finishing order within each game, 95%
  bootstrap intervals); --ratings-out writes the bot levels' rungs as the JSON the server shows.`;

// parseArgs throws on an unknown option; answer with the usage instead of a stack trace.
let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({ options: { help: { type: 'boolean', short: 'h' }, ...ARG_OPTIONS } }));
} catch (e) {
  process.stderr.write(`arena: ${(e as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const { help: _help, ...given } = values;
const parsed = argsSchema.safeParse(given);
if (!parsed.success) {
  process.stderr.write(`arena: ${parsed.error.message}\n`);
  process.exit(1);
}
const a = parsed.data;
const engine = createEngine(loadMapForCli(a.map));
const now = () => performance.now();
const playOne = (g: number): GameResult =>
  playArenaGame(engine, `${a.seed}-${g}`, rotated(a.lineup, g), a.turns, now, a.options, a['budget-ms']);

function inChild(g: number): Promise<GameResult> {
  const self = fileURLToPath(import.meta.url);
  const args = [...process.execArgv, self, '--game', String(g), '--turns', String(a.turns)];
  args.push('--lineup', a.lineup.join(','), '--seed', a.seed, ...(a.map ? ['--map', a.map] : []));
  if (a.options.length) args.push('--options', a.options.join(','));
  if (a['budget-ms'] !== undefined) args.push('--budget-ms', String(a['budget-ms']));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as GameResult) : reject(new Error(`game ${g} exited ${code}`)),
    );
  });
}

async function playAll(): Promise<GameResult[]> {
  if (a.jobs === 1) return Array.from({ length: a.games }, (_, g) => playOne(g));
  const results: GameResult[] = new Array(a.games);
  let next = 0;
  const worker = async () => {
    while (next < a.games) {
      const g = next++;
      results[g] = await inChild(g);
      process.stderr.write('.');
    }
  };
  await Promise.all(Array.from({ length: Math.min(a.jobs, availableParallelism()) }, worker));
  process.stderr.write('\n');
  return results;
}

const fmt = (i: { mean: number; low: number; high: number }, d = 1) =>
  `${i.mean.toFixed(d)} [${i.low.toFixed(d)}, ${i.high.toFixed(d)}]`;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
}

async function main() {
  if (a.game !== undefined) {
    process.stdout.write(JSON.stringify(playOne(a.game)));
    return;
  }
  const t0 = performance.now();
  const games = await playAll();
  const seconds = (performance.now() - t0) / 1000;
  const present = [...new Set(a.lineup)] as Contestant[];
  // Per game, each contestant's mean over its seats: games are the independent samples.
  const perGame = (c: Contestant, f: (s: GameResult['seats'][number]) => number) =>
    games.map((g) => {
      const seats = g.seats.filter((s) => s.contestant === c);
      return seats.reduce((sum, s) => sum + f(s), 0) / Math.max(1, seats.length);
    });
  const lines = [
    `arena: ${games.length} games of ${a.turns} turns, lineup ${a.lineup.join(',')} (seats rotate), seed ${a.seed}` +
      (a.options.length ? `, options ${a.options.join(',')}` : ''),
    `${seconds.toFixed(0)} s, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    '',
    'contestant  best-cycle VP (95% CI)    advanced average (95% CI)  cycles (95% CI)     kingdoms (95% CI)   decision p50/p99/max ms',
  ];
  for (const c of present) {
    const ms = games.flatMap((g) => g.decisionMs[c] ?? []);
    lines.push(
      [
        c.padEnd(11),
        fmt(meanInterval(perGame(c, (s) => s.bestCycleVp))).padEnd(25),
        fmt(meanInterval(perGame(c, (s) => s.average)), 2).padEnd(26),
        fmt(meanInterval(perGame(c, (s) => s.cycles)), 2).padEnd(19),
        fmt(meanInterval(perGame(c, (s) => s.kingdoms)), 2).padEnd(19),
        `${quantile(ms, 0.5).toFixed(2)}/${quantile(ms, 0.99).toFixed(2)}/${Math.max(0, ...ms).toFixed(1)}`,
      ].join(' '),
    );
  }
  if (present.length > 1) {
    const [first, last] = [present[0]!, present.at(-1)!];
    const r = ratioInterval(
      perGame(first, (s) => s.bestCycleVp),
      perGame(last, (s) => s.bestCycleVp),
    );
    lines.push('', `best-cycle VP ratio ${first}/${last}: ${fmt(r, 2)} (paired bootstrap over games)`);
  }
  if (present.length > 1) {
    const rungs = ladder(games);
    lines.push('', 'ladder (Bradley-Terry, Elo scale, 95% bootstrap interval)  mean best-cycle VP  seats');
    for (const r of rungs)
      lines.push(
        `  ${r.contestant.padEnd(8)} ${r.rating.toFixed(0).padStart(5)} [${r.low.toFixed(0)}, ${r.high.toFixed(0)}]`.padEnd(
          60,
        ) + ` ${r.meanBestCycleVp.toFixed(1).padStart(7)}  ${r.seats}`,
      );
    if (a['ratings-out']) {
      const levels = Object.fromEntries(
        rungs
          .filter((r) => (BOT_LEVELS as readonly string[]).includes(r.contestant))
          .map((r) => [
            r.contestant,
            {
              rating: Math.round(r.rating),
              low: Math.round(r.low),
              high: Math.round(r.high),
              meanBestCycleVp: Math.round(r.meanBestCycleVp * 10) / 10,
            },
          ]),
      );
      const command = `npm run -s arena -- ${process.argv
        .slice(2)
        .filter((x, i, all) => x !== '--ratings-out' && all[i - 1] !== '--ratings-out')
        .join(' ')}`;
      const file = botRatingsSchema.parse({
        command,
        loadAverage: loadavg()
          .map((l) => l.toFixed(2))
          .join(' '),
        games: games.length,
        turns: a.turns,
        levels,
      });
      writeFileSync(a['ratings-out'], `${JSON.stringify(file, null, 2)}\n`);
      lines.push(`ratings written to ${a['ratings-out']}`);
    }
  }
  const made: Record<string, number> = {};
  for (const g of games)
    for (const [k, n] of Object.entries(g.agreements ?? {})) made[k] = (made[k] ?? 0) + n;
  if (a.options.length)
    lines.push(
      `agreements carried out: ${
        Object.entries(made)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ') || 'none'
      }`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
