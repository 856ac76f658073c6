/**
 * A site is backed up while it runs (a real server process, with accounts, a world and orders, and
 * orders still being played while the backup is taken), restored into a new database elsewhere,
 * and everything is there: every account, the world, every order acknowledged before the backup
 * began, and nothing that is not in the live database. `npm run rebuild` then checks the restored
 * world against its snapshots, and a server on the restored database lets its players log in.
 * On DATABASE_URL's server when set (scratch databases), else on the embedded database (folders),
 * whose running server takes the backup for the command.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { type DatabaseConfig, openDatabase } from '../src/db/database.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { type ServerProcess, startServerProcess } from './helpers/server-process.ts';
import { createScratchDatabase } from './helpers/test-database.ts';

/** Two cold starts of a server, a backup, a restore and a rebuild, each a process of its own. */
const WHOLE_STORY_MS = 400_000;

type Site = { env: Record<string, string>; config: DatabaseConfig };
const base = { HOME: process.env.HOME ?? '/tmp', WEB_DIST: '/nonexistent', PATH: process.env.PATH ?? '' };
const cleanups: (() => Promise<unknown>)[] = [];
const servers: ServerProcess[] = [];
const clients: TestClient[] = [];
let dir: string;

async function newSite(name: string): Promise<Site> {
  if (process.env.DATABASE_URL) {
    const s = await createScratchDatabase(process.env.DATABASE_URL);
    cleanups.push(s.drop);
    return { env: { ...base, DATABASE_URL: s.url }, config: { kind: 'postgres', url: s.url, poolSize: 2 } };
  }
  const dataDir = path.join(dir, name);
  return { env: { ...base, DATA_DIR: dataDir }, config: { kind: 'embedded', dataDir } };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'bke-backup-'));
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of servers) await s.stop('SIGKILL');
  for (const c of cleanups) await c();
  await rm(dir, { recursive: true, force: true });
});

/** Runs a command line of the server's as an operator would (tsx on the sources). */
function cli(
  file: string,
  args: string[],
  site: Site,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: REPO_ROOT,
    env: { ...site.env, INIT_CWD: dir },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (b: Buffer) => {
    stdout += b.toString();
  });
  child.stderr?.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

async function startServer(site: Site): Promise<string> {
  const server = startServerProcess(site.env);
  servers.push(server);
  await server.ready(120_000);
  return server.base;
}

/** Plays up to `n` orders, each acknowledged; returns their versions. */
async function play(a: TestClient, b: TestClient, n: number): Promise<number[]> {
  const acked: number[] = [];
  const policy = { done: false };
  for (let i = 0; i < n * 3 && acked.length < n; i++) {
    const waiting = a.status?.waitingFor ?? [];
    const c = waiting.includes('p1') ? a : waiting.includes('p2') ? b : null;
    if (!c) break;
    await c.until(Math.max(a.version, b.version));
    const order = pickOrder(c.legal, policy);
    if (!order) break;
    const r = await c.order(order);
    if (r.ok) acked.push(r.version);
  }
  return acked;
}

describe('backup of a running site, restored elsewhere', () => {
  it(
    'finds every account, world and order, rebuilds the world and serves it',
    async () => {
      const live = await newSite('live');
      const url = await startServer(live);
      const alice = await signup(url, 'alice');
      const bob = await signup(url, 'bob');
      await signup(url, 'carol'); // an account in no world
      const created = await api(url, alice, 'POST', '/api/worlds', {
        name: 'Backed Up',
        deadline: { mode: 'live', minutesPerPhase: 60 },
      });
      const worldId = (created.body.world as { id: string }).id;
      await api(url, alice, 'POST', `/api/worlds/${worldId}/join`, {});
      await api(url, bob, 'POST', `/api/worlds/${worldId}/join`, {});
      const a = new TestClient(url, alice, worldId);
      const b = new TestClient(url, bob, worldId);
      clients.push(a, b);
      await a.subscribe();
      await b.subscribe();
      const before = await play(a, b, 6);
      expect(before.length).toBeGreaterThan(3);

      // The backup runs while the players go on: whatever it holds must be one instant of the site.
      const backup = cli('apps/server/src/cli/backup.ts', ['site.backup.gz'], live);
      const during = await play(a, b, 4);
      const done = await backup;
      expect(done.stderr).toBe('');
      expect(done.status).toBe(0);
      expect(done.stdout).toMatch(/^Backup written to .*site\.backup\.gz: \d+ rows in \d+ tables/);
      if (live.config.kind === 'embedded') expect(done.stdout).toContain('taken by the running server');

      // Elsewhere: a database nobody has used.
      const restored = await newSite('restored');
      const r = await cli('apps/server/src/cli/restore.ts', ['site.backup.gz'], restored);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('npm run -s rebuild -- --all');
      // Restoring again is refused: the database is no longer empty.
      const again = await cli('apps/server/src/cli/restore.ts', ['site.backup.gz'], restored);
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('The database is not empty');

      // The live site, stopped, against the restored copy.
      for (const c of clients) c.close();
      await servers[0]?.stop('SIGTERM');
      const read = async (site: Site) => {
        const db = await openDatabase(site.config);
        try {
          return {
            users: await db.prisma.user.findMany({ orderBy: { username: 'asc' } }),
            worlds: await db.prisma.world.findMany(),
            seats: await db.prisma.worldSeat.findMany({ orderBy: { playerId: 'asc' } }),
            orders: await db.prisma.worldOrder.findMany({ where: { worldId }, orderBy: { seq: 'asc' } }),
            snapshots: await db.prisma.worldSnapshot.count({ where: { worldId } }),
          };
        } finally {
          await db.close();
        }
      };
      const [source, copy] = [await read(live), await read(restored)];
      expect(copy.users.map((u) => u.username)).toEqual(['alice', 'bob', 'carol']);
      expect(copy.users).toEqual(source.users);
      // The world's and seats' rows move on with play after the backup: compared on what does not.
      const fixed = (w: { id: string; name: string; createdById: string; createdAt: Date }) => [
        w.id,
        w.name,
        w.createdById,
        w.createdAt,
      ];
      expect(copy.worlds.map(fixed)).toEqual(source.worlds.map(fixed));
      const seat = (s: { worldId: string; playerId: string; userId: string | null }) => [
        s.worldId,
        s.playerId,
        s.userId,
      ];
      expect(copy.seats.map(seat)).toEqual(source.seats.map(seat));
      // Every order acknowledged before the backup began; those played during it, if at all, in
      // order; none that the live site does not have.
      const seqs = copy.orders.map((o) => o.seq);
      for (const v of before) expect(seqs).toContain(v);
      expect(copy.orders).toEqual(source.orders.slice(0, copy.orders.length));
      expect(copy.orders.length).toBeLessThan(source.orders.length + 1);
      expect(during.length).toBeGreaterThan(0);
      expect(copy.snapshots).toBeGreaterThan(0);

      // The restored world replays from its log to every snapshot.
      const rebuild = spawnSync(process.execPath, ['scripts/rebuild.mjs', '--all'], {
        cwd: REPO_ROOT,
        env: restored.env,
        encoding: 'utf8',
        timeout: 180_000,
      });
      expect(rebuild.status, rebuild.stderr).toBe(0);
      const reports = rebuild.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { worldId?: string; problems: string[] });
      expect(reports.length).toBeGreaterThan(0);
      for (const rep of reports) expect(rep.problems).toEqual([]);

      // A server on the restored database: the players log in and find their world.
      const url2 = await startServer(restored);
      const login = await api(url2, null, 'POST', '/api/auth/login', {
        username: 'bob',
        password: 'password123',
      });
      expect(login.status).toBe(200);
      const world = await api(url2, login.cookie, 'GET', `/api/worlds/${worldId}`);
      expect(world.status).toBe(200);
    },
    WHOLE_STORY_MS,
  );
});
