/**
 * The example bot client (examples/bot-client) against a real server process: a person makes a bot
 * account and its token on the account routes, creates a world with one built-in bot, and the
 * example program — a process of its own, holding only the token — joins and plays its seat with
 * the simplest legal orders for 20 game turns. The world's log then holds that seat's orders under
 * the bot account. A revoked token is refused at once: the program started again exits with the
 * server's reason.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HTTP_ROUTES, issuedTokenResponseSchema } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signup } from './helpers/client.ts';
import { type ServerProcess, startServerProcess } from './helpers/process.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TURNS = 20;

let server: ServerProcess;

beforeAll(async () => {
  // Built-in bots answer at once (a world with no person's page open would pace them).
  server = await startServerProcess({ BOT_ALONE_MS: '0', BOT_DECISION_MS: '5' });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/** Runs the example program to its end: its exit status and what it printed. */
function runExample(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/bot-client/main.ts', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

describe('the example bot client', () => {
  it(`plays its seat for ${TURNS} game turns through a real server, and stops at a revoked token`, {
    timeout: 600_000,
  }, async () => {
    const base = server.base;
    const owner = await signup(base, 'ownerx');
    const made = await api(base, owner, 'POST', HTTP_ROUTES.createBot.path, {
      username: 'robo_player',
      label: 'test run',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const { token, bot } = issuedTokenResponseSchema.parse(made.body);
    const created = await api(base, owner, 'POST', '/api/worlds', {
      name: 'Bot arena',
      bots: ['easy'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const worldId = (created.body.world as { id: string }).id;

    const run = await runExample([
      '--server',
      base,
      '--token',
      token,
      '--join',
      worldId,
      '--turns',
      String(TURNS),
      '--poll',
      '100',
    ]);
    expect(run.code, `${run.out}\n${run.err}\n${server.stderr()}`).toBe(0);
    const sent = Number(/done: (\d+) orders sent/.exec(run.out)?.[1]);
    expect(sent).toBeGreaterThanOrEqual(TURNS);

    // The world went on 20 game turns, and its seats say which is the bot account's.
    const world = await api(base, null, 'GET', `/api/worlds/${worldId}`);
    const w = world.body.world as { turn: number; seats: { username: string; userId: string | null }[] };
    expect(w.turn).toBeGreaterThanOrEqual(TURNS);
    expect(w.seats.find((s) => s.username === 'robo_player')?.userId).toBe(bot.id);

    // Revoked: the same program is refused at its first request, with the server's reason.
    const tokenId = bot.tokens[0]?.id ?? '';
    const revoked = await api(
      base,
      owner,
      'POST',
      HTTP_ROUTES.revokeBotToken.path.replace(':botId', bot.id).replace(':tokenId', tokenId),
      {},
    );
    expect(revoked.status).toBe(200);
    const again = await runExample(['--server', base, '--token', token, '--world', worldId]);
    expect(again.code).toBe(1);
    expect(again.err).toContain('401 auth/required');
  });
});
