/**
 * The production set, as the Docker image holds it (scripts/lib/production.mjs): the compiled
 * server and its production dependencies alone, assembled into a folder of its own outside the
 * repository. Started there with `node apps/server/dist/main.js` and NODE_ENV=production, on
 * DATABASE_URL's server when set, else on the embedded database, it migrates a fresh database,
 * answers its health check, signs a player up and takes an order, and writes nothing but JSON lines
 * to its log. The set holds none of the development tools that used to arrive as filled-in optional
 * peers (the Prisma CLI and Studio, React, effect, a second PGlite, TypeScript).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/root.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { freePort } from './helpers/process.ts';
import { ensureServerBuilt } from './helpers/server-process.ts';
import { createScratchDatabase } from './helpers/test-database.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'bke-production-'));
let child: ChildProcess | null = null;
let output = '';
let base = '';
let dropDatabase = async () => {};
const clients: TestClient[] = [];

/** Bytes of the files under `dir`, links not followed (pnpm links each package into place). */
function bytesUnder(dir: string): number {
  let sum = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sum += bytesUnder(p);
    else if (e.isFile()) sum += lstatSync(p).size;
  }
  return sum;
}

beforeAll(async () => {
  ensureServerBuilt();
  const assembled = spawnSync(
    process.execPath,
    [
      '-e',
      "import('./scripts/lib/production.mjs').then((m) => m.assembleProduction(process.argv[1]))",
      folder,
    ],
    { cwd: REPO_ROOT, encoding: 'utf8' },
  );
  if (assembled.status !== 0)
    throw new Error(`assembling the production set failed:\n${assembled.stdout}\n${assembled.stderr}`);

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    DEADLINE_POLL_MS: '0',
  };
  if (process.env.DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL);
    env.DATABASE_URL = scratch.url;
    dropDatabase = scratch.drop;
  } else {
    env.DATA_DIR = path.join(folder, 'data');
  }
  base = `http://127.0.0.1:${env.PORT}`;
  child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: folder,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
}, 300_000);

afterAll(async () => {
  for (const c of clients) c.close();
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child?.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await dropDatabase();
  rmSync(folder, { recursive: true, force: true });
});

describe('the production set, started from a folder of its own', () => {
  it('holds the runtime dependencies and none of the development tools', () => {
    const store = path.join(folder, 'apps/server/node_modules/.pnpm');
    const packages = readdirSync(store);
    const unwanted = packages.filter((p) =>
      /^(prisma|typescript|effect|react|react-dom|@prisma\+studio-core|@prisma\+dev|@prisma\+client)@/.test(
        p,
      ),
    );
    expect(unwanted).toEqual([]);
    expect(packages.filter((p) => p.startsWith('@electric-sql+pglite@'))).toHaveLength(1);
    for (const needed of ['fastify@', 'socket.io@', 'pg@', '@prisma+adapter-pg@', 'pglite-prisma-adapter@'])
      expect(packages.some((p) => p.startsWith(needed))).toBe(true);
    // 396 MB before the optional peers were left out; about 90 MB after.
    expect(bytesUnder(path.join(folder, 'apps/server/node_modules'))).toBeLessThan(130 * 1024 * 1024);
  });

  it('migrates a fresh database and answers its readiness check', async () => {
    const end = Date.now() + 120_000;
    for (;;) {
      if (child?.exitCode !== null || child?.signalCode !== null)
        throw new Error(`the server exited (${child?.exitCode ?? child?.signalCode}):\n${output}`);
      const r = await fetch(`${base}/api/health/ready`).catch(() => null);
      if (r?.status === 200) {
        const health = (await r.json()) as { database: { kind: string; up: boolean } };
        expect(health.database).toEqual({
          kind: process.env.DATABASE_URL ? 'postgres' : 'embedded',
          up: true,
        });
        return;
      }
      if (Date.now() > end) throw new Error(`not ready within 120 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 130_000);

  it('signs players up and takes an order', async () => {
    const alice = await signup(base, 'alice');
    const bob = await signup(base, 'bob');
    const created = await api(base, alice, 'POST', '/api/worlds', {
      name: 'Production set',
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
    });
    expect(created.status).toBe(200);
    const worldId = (created.body.world as { id: string }).id;
    const byPlayer = new Map<string, TestClient>();
    for (const who of [alice, bob]) {
      expect((await api(base, who, 'POST', `/api/worlds/${worldId}/join`, {})).status).toBe(200);
      const c = new TestClient(base, who, worldId);
      clients.push(c);
      const r = await c.subscribe();
      if (!r.ok || !r.playerId) throw new Error(`not seated: ${JSON.stringify(r)}`);
      byPlayer.set(r.playerId, c);
    }
    const world = (await api(base, alice, 'GET', `/api/worlds/${worldId}`)).body.world as {
      version: number;
      waitingFor: string[];
    };
    const player = byPlayer.get(world.waitingFor[0] ?? '');
    if (!player) throw new Error(`nobody to play for: ${JSON.stringify(world.waitingFor)}`);
    const order = pickOrder(player.legal, { done: false });
    const ack = await player.order(order);
    expect(ack).toMatchObject({ ok: true, version: world.version + 1 });
    await player.until(world.version + 1);
  }, 60_000);

  it('stops on SIGTERM, having written JSON lines only, from migrating to stopping', async () => {
    const exited = new Promise((r) => child?.once('exit', r));
    child?.kill('SIGTERM');
    expect(await exited).toBe(0);
    const lines = output.split('\n').filter((l) => l.trim() !== '');
    const plain = lines.filter((l) => {
      try {
        return typeof JSON.parse(l) !== 'object';
      } catch {
        return true;
      }
    });
    expect(plain).toEqual([]);
    const said = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(said.some((m) => m.startsWith('BKE Online is running at'))).toBe(true);
    expect(said).toContain('stopped');
  }, 60_000);
});
