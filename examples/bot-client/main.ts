/**
 * `npm run -s example:bot -- --token <token> [--world <id>] [--join <id>] [--turns <n>]`
 *
 * A bot that plays its seats over BKE Online's bot interface (docs/bot-interface.md) with the
 * simplest legal policy (policy.ts). It asks for its seat's view and legal orders, sends an order
 * when the world waits for it, and otherwise waits a little and asks again.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { BotClient, Refused } from './client.ts';
import { choose } from './policy.ts';

const HELP = `usage: npm run -s example:bot -- [options]

Plays the seats of a BKE Online bot account with the simplest legal orders.

  --token <token>    the bot's token (or set BKE_BOT_TOKEN); make one on your account page
  --server <url>     the server (default http://localhost:3000)
  --join <world id>  take a seat in this world first
  --world <world id> play only this world (default: every world the bot is seated in)
  --turns <n>        stop once each world played has gone <n> game turns on (default: play on)
  --poll <ms>        how long to wait before asking again when it is not the bot's move (default 1000)
  --help             this text

Exit status: 0 when done, 1 when the server refused the bot (the reason is printed), 2 on bad options.`;

const uuid = z.uuid('a world id');
const optionsSchema = z
  .object({
    token: z.string().regex(/^bke_bot_[A-Za-z0-9_-]{20,90}$/, 'a bot token (it starts with bke_bot_)'),
    server: z.url({ protocol: /^https?$/ }).default('http://localhost:3000'),
    join: uuid.optional(),
    world: uuid.optional(),
    turns: z.coerce.number().int().min(1).max(100_000).optional(),
    poll: z.coerce.number().int().min(50).max(600_000).default(1000),
  })
  .strict();

function options() {
  let raw: ReturnType<typeof parseArgs>['values'];
  try {
    raw = parseArgs({
      options: {
        token: { type: 'string' },
        server: { type: 'string' },
        join: { type: 'string' },
        world: { type: 'string' },
        turns: { type: 'string' },
        poll: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  if (raw.help) {
    console.log(HELP);
    process.exit(0);
  }
  const { help: _help, ...rest } = raw;
  const parsed = optionsSchema.safeParse({ token: process.env.BKE_BOT_TOKEN, ...rest });
  if (!parsed.success) {
    console.error(`${z.prettifyError(parsed.error)}\n\n${HELP}`);
    process.exit(2);
  }
  return parsed.data;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Plays one world until it closes or has gone `turns` game turns on; returns the orders sent. */
async function play(bot: BotClient, worldId: string, turns: number | undefined, pollMs: number) {
  let sent = 0;
  let startTurn: number | null = null;
  let lastTurn = -1;
  for (;;) {
    const seat = await bot.seat(worldId);
    const turn = seat.view.turn;
    startTurn ??= turn;
    if (turn !== lastTurn) console.log(`${worldId}: game turn ${turn} (${sent} orders sent)`);
    lastTurn = turn;
    if (seat.status.status === 'closed' || (turns !== undefined && turn - startTurn >= turns)) return sent;
    const mine = seat.status.waitingFor.includes(seat.playerId) && !seat.status.ready.includes(seat.playerId);
    const order = mine ? choose(seat.legal) : null;
    if (!order) {
      await sleep(pollMs);
      continue;
    }
    try {
      await bot.order(worldId, seat.version, order);
      sent++;
    } catch (e) {
      // The world moved on between reading and ordering: read it again. (Going too fast is
      // waited out by the client itself: client.ts.)
      if (!(e instanceof Refused) || e.error.code !== 'sync/stale') throw e;
    }
  }
}

async function main() {
  const o = options();
  const bot = new BotClient(o.server, o.token);
  if (o.join) await bot.join(o.join);
  const worlds = o.world ? [o.world] : (await bot.seats()).worlds.map((w) => w.worldId);
  if (worlds.length === 0) console.log('The bot holds no seat: join a world with --join <world id>.');
  const sent = await Promise.all(worlds.map((w) => play(bot, w, o.turns, o.poll)));
  console.log(`done: ${sent.reduce((a, b) => a + b, 0)} orders sent`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Refused ? `refused: ${e.message}` : e);
  process.exit(1);
});
