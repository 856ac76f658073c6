/**
 * `npm run -s engine -- <command>`: new | legal | apply | sim | replay | check. Every argument and
 * file is zod-parsed; output is JSON on stdout; an engine refusal prints its error code and exits 2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { strongPolicy } from '../bot/strong.ts';
import { createEngine } from '../engine.ts';
import { completeRecordOf } from '../record/write.ts';
import { gameSetupSchema, RULES_VERSION } from '../scenario/setup.ts';
import { playListedCheck } from '../sim/listed-check.ts';
import { simSetup, simulate } from '../sim/play.ts';
import { simplePolicy } from '../sim/policy.ts';
import { loadMapForCli } from './load-map.ts';
import { replayRecordFile } from './replay-record.ts';

const USAGE = `usage: engine <command> [options]
  new    --seed S --players N [--options FILE] [--map FILE]     → initial state JSON
  legal  --state FILE --player P [--map FILE]                     → legal orders JSON
  apply  --state FILE --orders FILE [--actor P|system] [--map FILE] → { state, events } or { error }
  sim    --seed S --players N --turns T [--options FILE] [--map FILE] [--log] [--record FILE]
         → summary JSON; --record writes the game's complete record (docs/game-records.md)
  replay RECORD [--map FILE]
         replays a complete game record and prints its final hash; a record that does not fit
         the format, or whose replay parts from it, prints its error code and exits 2
  check  --seed S --games G --turns T [--every K] [--map FILE]
         plays G seeded games per victory mode with every optional rule on (strong, simple and
         random seats) and checks that every order listed at sampled positions is accepted;
         prints what was refused or threw and exits 2 if anything was`;

const argsSchema = z.object({
  command: z.enum(['new', 'legal', 'apply', 'sim', 'replay', 'check']),
  file: z.string().min(1).optional(),
  record: z.string().min(1).optional(),
  games: z.coerce.number().int().min(1).max(1000).default(8),
  every: z.coerce.number().int().min(1).max(10_000).default(40),
  seed: z.string().min(1).default('1'),
  players: z.coerce.number().int().min(1).max(6).default(2),
  turns: z.coerce.number().int().min(1).max(1000).default(40),
  state: z.string().optional(),
  player: z.string().optional(),
  orders: z.string().optional(),
  actor: z.string().optional(),
  options: z.string().optional(),
  map: z.string().optional(),
  log: z.boolean().default(false),
});

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const print = (v: unknown) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
const fail = (msg: string, code = 1): never => {
  process.stderr.write(`${msg}\n`);
  process.exit(code);
};

async function main() {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      seed: { type: 'string' },
      players: { type: 'string' },
      turns: { type: 'string' },
      state: { type: 'string' },
      player: { type: 'string' },
      orders: { type: 'string' },
      actor: { type: 'string' },
      options: { type: 'string' },
      map: { type: 'string' },
      log: { type: 'boolean' },
      record: { type: 'string' },
      games: { type: 'string' },
      every: { type: 'string' },
    },
  });
  if (positionals.length > 2) return fail(`${USAGE}\n\nunexpected argument: ${positionals[2]}`);
  const parsed = argsSchema.safeParse({ ...values, command: positionals[0], file: positionals[1] });
  if (!parsed.success) return fail(`${USAGE}\n\n${parsed.error.message}`);
  const a = parsed.data;
  const engine = createEngine(loadMapForCli(a.map));
  const options = a.options ? readJson(a.options) : {};
  switch (a.command) {
    case 'new': {
      const r = engine.createGame({ ...simSetup(a.seed, a.players), options });
      return r.ok ? print(r.value) : fail(JSON.stringify(r.error), 2);
    }
    case 'legal': {
      if (!a.state || !a.player) return fail(USAGE);
      const state = z
        .looseObject({ step: z.unknown(), players: z.array(z.unknown()) })
        .parse(readJson(a.state));
      return print(engine.legalOrders(state as never, a.player as never));
    }
    case 'apply': {
      if (!a.state || !a.orders) return fail(USAGE);
      let state = z.looseObject({ step: z.unknown() }).parse(readJson(a.state)) as never;
      const raw = readJson(a.orders);
      const list = z.array(z.unknown()).parse(Array.isArray(raw) ? raw : [raw]);
      const events: unknown[] = [];
      for (const order of list) {
        const o = z.looseObject({ actor: z.string().optional() }).parse(order);
        const actor = o.actor ?? a.actor ?? engine.waitingFor(state)[0];
        if (!actor) return fail('nobody is waiting; pass --actor', 2);
        const { actor: _drop, ...body } = o;
        const r = engine.applyOrder(state, actor as never, body);
        if (!r.ok) {
          print({ error: r.error, applied: events.length });
          process.exit(2);
        }
        state = r.value.state as never;
        events.push(...r.value.events);
      }
      return print({ state, events });
    }
    case 'sim': {
      const setup = simSetup(a.seed, a.players, options as never);
      const run = simulate(engine, setup, a.turns);
      if (a.record) {
        const parsedSetup = gameSetupSchema.parse(setup);
        writeFileSync(
          a.record,
          `${JSON.stringify(completeRecordOf(engine, parsedSetup, run.log, run.final))}\n`,
        );
      }
      return print(a.log ? { ...run.summary, log: run.log } : run.summary);
    }
    case 'replay': {
      if (!a.file) return fail(`${USAGE}\n\nreplay needs the record file`);
      const r = replayRecordFile(engine, a.file, RULES_VERSION);
      if (!r.ok) return fail(`${r.error.code}: ${r.error.message}`, 2);
      return print(r.value);
    }
    case 'check': {
      let bad = 0;
      for (let g = 0; g < a.games; g++)
        for (const victory of ['basic', 'advanced'] as const) {
          const r = playListedCheck(engine, `${a.seed}-${g}`, {
            turns: a.turns,
            victory,
            every: a.every,
            policies: [(s) => strongPolicy(s), (s) => simplePolicy(s), () => 'random'],
          });
          bad += r.problems.length;
          const { problems, ...counts } = r;
          print({ victory, ...counts, problems });
        }
      if (bad > 0) process.exit(2);
      return;
    }
  }
}

main().catch((e: unknown) => fail(e instanceof Error ? (e.stack ?? e.message) : String(e)));
