/**
 * Three real server processes — separate OS processes running the compiled server, as `npm start`
 * does — on one fresh PostgreSQL database, reaching each other through Socket.IO's PostgreSQL
 * adapter.
 *
 * 1. Started at the same moment on a database nobody has migrated: one migrates, the others wait
 *    for it, all three become ready, and no migration lock is left behind. (Told not to migrate, a
 *    server refuses to start on that database instead.)
 * 2. Players spread over the three play full turns; chat, a moderator's pause and a ban cross
 *    processes; forced deadlines fire exactly once however many processes look for them; a player
 *    whose page is open on another process gets no webhook line; one process is SIGKILLed while an
 *    order is in flight and its player reconnects to another: every acknowledged order is in the log
 *    and every client ends holding the same view as a fresh one; a world that ends at a set turn,
 *    played out by stand-in bots while two of them hold it, is closed, tabled and rated exactly once.
 */
import { createHash } from 'node:crypto';
import { MODERATION_NOTICE_EVENT } from '@bke/protocol';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrations } from '../src/db/migrate.ts';
import { waitFor } from './helpers/app.ts';
import { api, pickOrder, shared, signup, TestClient } from './helpers/client.ts';
import { type ServerProcess, startServerProcess } from './helpers/server-process.ts';
import { createScratchDatabase } from './helpers/test-database.ts';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.ts';

const serverUrl = process.env.DATABASE_URL;
let scratch: { url: string; drop(): Promise<void> } | null = null;
let sql: pg.Client | null = null;
const procs: ServerProcess[] = [];
const clients: TestClient[] = [];
let receiver: WebhookReceiver<{ content: string }> | null = null;
let webhookLines: { content: string }[] = [];

const ADMIN = { username: 'ops_admin', password: 'ops-admin-password' };

beforeAll(async () => {
  if (!serverUrl) return;
  scratch = await createScratchDatabase(serverUrl);
  sql = new pg.Client({ connectionString: scratch.url });
  await sql.connect();
  receiver = await startWebhookReceiver();
  webhookLines = receiver.received;
});

afterAll(async () => {
  for (const c of clients) c.close();
  await Promise.all(procs.map((p) => p.stop()));
  receiver?.close();
  await sql?.end();
  await scratch?.drop();
});

const base = (i: number) => procs[i]?.base ?? '';
/** The world's version in the database: the last seq of its order log (world $1). */
const LOG_VERSION = 'SELECT coalesce(max(seq), 0)::int AS version FROM world_orders WHERE world_id = $1';
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );
const viewHash = (v: unknown) =>
  createHash('sha256')
    .update(canonical(shared(v)))
    .digest('hex');

/** The deadlines each process says it fired (its Prometheus counter), summed. */
async function deadlinesFired(admin: string, alive: number[]): Promise<number> {
  let sum = 0;
  for (const i of alive) {
    const res = await fetch(`${base(i)}/api/admin/metrics`, { headers: { cookie: admin } });
    expect(res.status).toBe(200);
    const m = /^bke_deadlines_fired_total (\d+)$/m.exec(await res.text());
    sum += Number(m?.[1] ?? Number.NaN);
  }
  return sum;
}

describe.runIf(serverUrl)('three server processes on one PostgreSQL', () => {
  it('told not to migrate (a deploy step does), a server refuses a database that lacks migrations', async () => {
    const early = startServerProcess({ DATABASE_URL: scratch?.url ?? '', MIGRATE_ON_START: '0' });
    expect(await new Promise((r) => early.child.once('exit', r))).toBe(1);
    expect(early.output.join('')).toMatch(/lacks \d+ migration\(s\).*npm run migrate/);
  });

  it('started at the same moment on a fresh database, all three migrate safely and become ready', async () => {
    const env = {
      DATABASE_URL: scratch?.url ?? '',
      DEADLINE_POLL_MS: '200',
      BKE_ADMIN_USERNAME: ADMIN.username,
      BKE_ADMIN_PASSWORD: ADMIN.password,
      WEBHOOKS_ALLOW_PRIVATE: '1',
    };
    for (let i = 0; i < 3; i++) procs.push(startServerProcess(env));
    await Promise.all(procs.map((p) => p.ready(90_000)));
    const { migrationDirectories } = await readMigrations();
    const rows = await sql?.query<{ migration_name: string; finished_at: Date | null }>(
      'SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows?.rows.map((r) => r.migration_name)).toEqual(migrationDirectories.map((m) => m.path));
    expect(rows?.rows.every((r) => r.finished_at !== null)).toBe(true);
    // The migration lock went with the session that took it.
    const locks = await sql?.query(
      `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = 72707369
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(locks?.rowCount).toBe(0);
    // Every process counts the three (the adapter's heartbeats).
    const admin = (await api(base(0), null, 'POST', '/api/auth/login', ADMIN)).cookie ?? '';
    for (let i = 0; i < 3; i++) {
      const end = Date.now() + 15_000;
      for (;;) {
        const res = await fetch(`${base(i)}/api/admin/metrics`, { headers: { cookie: admin } });
        if (/^bke_cluster_processes 3$/m.test(await res.text())) break;
        if (Date.now() > end) throw new Error(`process ${i} does not count three processes`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  });

  describe('players spread over them', () => {
    let worldId = '';
    let admin = '';
    const cookies: Record<string, string> = {};
    const byPlayer = new Map<string, TestClient>();
    let watcher: TestClient;
    /** Every acknowledged order: the version it produced and what it was. */
    const acked: { version: number; order: unknown }[] = [];
    const client = (at: number, cookie: string) => {
      const c = new TestClient(base(at), cookie, worldId);
      clients.push(c);
      return c;
    };

    /** The world's version in the database: the truth every process catches up with. */
    async function logVersion(): Promise<number> {
      const r = await sql?.query<{ version: number }>(LOG_VERSION, [worldId]);
      return r?.rows[0]?.version ?? 0;
    }

    /**
     * Whom the world waits for, as the process at `at` says once it holds `version` (a process told
     * of a change by another catches up within milliseconds).
     */
    async function waitingAt(at: number, version: number): Promise<string[]> {
      const end = Date.now() + 10_000;
      for (;;) {
        const r = await api(base(at), null, 'GET', `/api/worlds/${worldId}`);
        const w = r.body.world as { version: number; waitingFor: string[] };
        if (w.version >= version) return w.waitingFor;
        if (Date.now() > end) throw new Error(`process ${at} stuck at ${w.version}, wanted ${version}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    /** One order by whoever the world waits for, through that player's own client and process. */
    async function playOne(policy: { done: boolean }): Promise<number> {
      const any = [...byPlayer.values()][0] as TestClient;
      const at = procs.findIndex((p) => p.base === any.base);
      const waiting = (await waitingAt(at, await logVersion()))[0];
      const c = byPlayer.get(waiting ?? '');
      if (!c) throw new Error(`nobody to play for: ${waiting}`);
      // Its legal orders for this version follow the patches on the same socket; under load they
      // may come a moment after, and an order picked from the previous ones is refused: pick again.
      for (let attempt = 1; ; attempt++) {
        await new Promise((r) => setTimeout(r, 20 * attempt));
        const order = pickOrder(c.legal, policy);
        if (!order) throw new Error(`no order among ${JSON.stringify(c.legal)}`);
        const r = await c.order(order);
        if (r.ok) {
          acked.push({ version: r.version, order });
          return r.version;
        }
        if (attempt === 5) throw new Error(`refused: ${JSON.stringify(r.error)}`);
      }
    }

    /** Waits until every live client holds `version`. */
    async function allAt(version: number) {
      for (const c of [...byPlayer.values(), watcher]) await c.until(version, 15_000);
    }

    it('three players on three processes play full turns; each client sees every order, in order', async () => {
      cookies.alice = await signup(base(0), 'alice');
      cookies.bob = await signup(base(1), 'bob');
      cookies.carol = await signup(base(2), 'carol');
      cookies.dave = await signup(base(2), 'dave');
      admin = (await api(base(1), null, 'POST', '/api/auth/login', ADMIN)).cookie ?? '';
      expect(admin).not.toBe('');
      const created = await api(base(2), cookies.alice, 'POST', '/api/worlds', {
        name: 'Three processes',
        deadline: { mode: 'live', minutesPerPhase: 10 },
      });
      worldId = (created.body.world as { id: string }).id;
      for (const [who, at] of [
        ['alice', 0],
        ['bob', 1],
        ['carol', 2],
      ] as const) {
        const joined = await api(base(at), cookies[who] ?? '', 'POST', `/api/worlds/${worldId}/join`, {});
        expect(joined.status).toBe(200);
        const c = client(at, cookies[who] ?? '');
        expect((await c.subscribe()).ok).toBe(true);
        byPlayer.set(c.playerId ?? '', c);
      }
      watcher = client(1, cookies.dave ?? '');
      expect((await watcher.subscribe()).ok).toBe(true);
      // From now on Alice's page is open (on process 0); her webhook must stay silent until it closes.
      const set = await api(base(0), cookies.alice ?? '', 'POST', '/api/account/notifications', {
        webhookUrl: receiver?.url,
      });
      expect(set.status).toBe(200);
      const alice = [...byPlayer.values()][0] as TestClient;
      await allAt(alice.version);

      const policy = { done: false };
      const startTurn = (alice.view?.turn as number) ?? 0;
      let orders = 0;
      for (let i = 0; i < 600 && ((alice.view?.turn as number) ?? 0) < startTurn + 2; i++) {
        await allAt(await playOne(policy));
        orders++;
      }
      expect(orders).toBeGreaterThan(10);
      expect(((alice.view?.turn as number) ?? 0) - startTurn).toBe(2);
      const hashes = new Set([...byPlayer.values(), watcher].map((c) => viewHash(c.view)));
      expect(hashes.size).toBe(1);
      for (const c of [...byPlayer.values(), watcher]) expect(c.gaps).toBe(0);
      // Alice's page was open (on process 0) all along: whichever process made the world wait for
      // her asked the others, and no webhook line went out.
      expect(webhookLines).toEqual([]);
    });

    it('chat from one process reaches players on the two others, private messages only their reader', async () => {
      const [a, b, c] = [...byPlayer.values()] as [TestClient, TestClient, TestClient];
      expect((await a.emit('chat/send', { worldId, body: 'hail from process 0' })).ok).toBe(true);
      await waitFor('world chat everywhere', () =>
        [b, c, watcher].every((x) => x.chat.some((m) => m.body === 'hail from process 0')),
      );
      expect((await c.emit('chat/send', { worldId, body: 'for bob only', to: b.playerId })).ok).toBe(true);
      await waitFor('the private message on process 1', () => b.chat.some((m) => m.body === 'for bob only'));
      await new Promise((r) => setTimeout(r, 200));
      expect([a, watcher].some((x) => x.chat.some((m) => m.body === 'for bob only'))).toBe(false);
      expect(b.chat.filter((m) => m.body === 'hail from process 0')).toHaveLength(1);
    });

    it('a pause on one process stops orders on all three, with the notice everywhere', async () => {
      const [a, b, c] = [...byPlayer.values()] as [TestClient, TestClient, TestClient];
      const notices: unknown[] = [];
      for (const x of [a, b, c]) x.socket.on(MODERATION_NOTICE_EVENT, (n: unknown) => notices.push(n));
      const paused = await api(base(2), admin, 'POST', `/api/moderation/worlds/${worldId}/pause`, {
        reason: 'database upgrade',
      });
      expect(paused.status).toBe(200);
      await waitFor('paused everywhere', () => [a, b, c].every((x) => x.status?.status === 'paused'), 10_000);
      await waitFor('the notice on every process', () => notices.length === 3);
      for (const x of [a, b, c]) {
        const refused = await x.order({ type: 'endPhase' });
        expect(refused).toMatchObject({ ok: false, error: { code: 'world/paused' } });
      }
      const resumed = await api(base(0), admin, 'POST', `/api/moderation/worlds/${worldId}/resume`, {
        reason: 'done',
      });
      expect(resumed.status).toBe(200);
      await waitFor(
        'running everywhere',
        () => [a, b, c].every((x) => x.status?.status === 'running'),
        10_000,
      );
    });

    it('a due deadline fires exactly once, though every process looks for it five times a second', async () => {
      const before = await deadlinesFired(admin, [0, 1, 2]);
      for (let round = 1; round <= 3; round++) {
        const { rows } = (await sql?.query<{ version: number; step_key: string }>(
          `SELECT (${LOG_VERSION}) AS version, step_key FROM worlds WHERE id = $1`,
          [worldId],
        )) ?? { rows: [] };
        const head = rows[0];
        if (!head) throw new Error('no world');
        // The step's time runs out now.
        await sql?.query(`UPDATE worlds SET deadline_at = now() - interval '1 second' WHERE id = $1`, [
          worldId,
        ]);
        await waitFor(
          `deadline ${round} fired`,
          () => [...byPlayer.values()].every((c) => c.version > head.version),
          10_000,
        );
        // Give a second firing every chance to happen before counting.
        await new Promise((r) => setTimeout(r, 1000));
        const fired = await sql?.query<{ seq: number; kind: string }>(
          'SELECT seq, kind FROM world_orders WHERE world_id = $1 AND seq > $2 ORDER BY seq',
          [worldId, head.version],
        );
        // One commit of default orders, all of them timeouts; nothing after it.
        expect(fired?.rows.length).toBeGreaterThan(0);
        expect(fired?.rows.every((r) => r.kind === 'timeout')).toBe(true);
        expect(await deadlinesFired(admin, [0, 1, 2])).toBe(before + round);
        const after = await sql?.query<{ deadline_at: Date }>(
          'SELECT deadline_at FROM worlds WHERE id = $1',
          [worldId],
        );
        expect(after?.rows[0]?.deadline_at.getTime()).toBeGreaterThan(Date.now() + 60_000);
        await allAt(head.version + (fired?.rows.length ?? 0));
      }
      expect(webhookLines).toEqual([]);
    });

    it('a process killed mid-turn loses no acknowledged order; its player goes on through another', async () => {
      const policy = { done: true };
      const bob = [...byPlayer.entries()].find(([, c]) => c.base === base(1));
      if (!bob) throw new Error('no player on process 1');
      const [bobId, bobClient] = bob;
      // Play until the world waits for the player on process 1, then send its order and kill the
      // process while the order may still be in flight.
      const waitingNow = async () => waitingAt(0, await logVersion());
      for (let i = 0; i < 200 && (await waitingNow())[0] !== bobId; i++) await allAt(await playOne(policy));
      expect((await waitingNow())[0]).toBe(bobId);
      // Its legal orders arrive just after the patches.
      let order = pickOrder(bobClient.legal, policy);
      for (let i = 0; i < 100 && !order; i++) {
        await new Promise((r) => setTimeout(r, 20));
        order = pickOrder(bobClient.legal, policy);
      }
      expect(order).not.toBeNull();
      const inFlight = bobClient.order(order).then(
        (r) => {
          if (r.ok) acked.push({ version: r.version, order });
          return r.ok;
        },
        () => false,
      );
      procs[1]?.child.kill('SIGKILL');
      await procs[1]?.stop();
      await inFlight;
      watcher.close();

      // Bob and the watcher come back through process 2, from the versions they held.
      // The page keeps what it held, and asks only for what it missed.
      const back = client(2, cookies.bob ?? '');
      back.view = bobClient.view;
      back.version = bobClient.version;
      const r = await back.subscribe(bobClient.version);
      expect(r.ok).toBe(true);
      byPlayer.set(bobId, back);
      watcher = client(2, cookies.dave ?? '');
      expect((await watcher.subscribe()).ok).toBe(true);
      // The game goes on to the end of the turn, the surviving processes firing nothing twice.
      const alice = [...byPlayer.values()][0] as TestClient;
      const turn = (alice.view?.turn as number) ?? 0;
      for (let i = 0; i < 300 && ((alice.view?.turn as number) ?? 0) <= turn; i++)
        await allAt(await playOne(policy));
      expect((alice.view?.turn as number) ?? 0).toBe(turn + 1);

      // Every acknowledged order is in the log at the version its acknowledgement named.
      const { rows } = (await sql?.query<{ seq: number; order: unknown }>(
        'SELECT seq, "order" FROM world_orders WHERE world_id = $1',
        [worldId],
      )) ?? { rows: [] };
      const log = new Map(rows.map((row) => [row.seq, row.order]));
      expect(acked.length).toBeGreaterThan(10);
      for (const a of acked)
        expect(log.get(a.version), `order acknowledged at ${a.version}`).toEqual(a.order);

      // Every client holds the same view, and a fresh one on the other process gets it too.
      const fresh = client(0, cookies.dave ?? '');
      expect((await fresh.subscribe()).ok).toBe(true);
      const version = fresh.version;
      await allAt(version);
      const hashes = new Set([...byPlayer.values(), watcher, fresh].map((c) => viewHash(c.view)));
      expect(hashes.size).toBe(1);
      const head = await sql?.query<{ version: number }>(LOG_VERSION, [worldId]);
      expect(head?.rows[0]?.version).toBe(version);
    });

    it('with her page closed, a player gets her webhook line', async () => {
      const alice = [...byPlayer.entries()].find(([, c]) => c.base === base(0));
      if (!alice) throw new Error('no player on process 0');
      alice[1].close();
      byPlayer.delete(alice[0]);
      // Let deadlines move the world on until it waits for her afresh (the line is for a step that
      // starts waiting for her, not for one that goes on waiting).
      const versionNow = async () =>
        (await sql?.query<{ version: number }>(LOG_VERSION, [worldId]))?.rows[0]?.version ?? 0;
      let before = await waitingAt(2, await versionNow());
      for (let i = 0; i < 12; i++) {
        const v = await versionNow();
        await sql?.query(`UPDATE worlds SET deadline_at = now() - interval '1 second' WHERE id = $1`, [
          worldId,
        ]);
        const end = Date.now() + 10_000;
        while ((await versionNow()) === v && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
        const now = await waitingAt(2, v + 1);
        if (now.includes(alice[0]) && !before.includes(alice[0])) break;
        before = now;
      }
      await waitFor('her webhook line', () => webhookLines.length > 0, 15_000);
      expect(webhookLines.length).toBe(1);
      expect(webhookLines[0]?.content).toContain('Three processes');
    });

    it('a ban on one process ends the account’s sockets on another', async () => {
      const carol = clients.find((c) => c.cookie === cookies.carol);
      if (!carol) throw new Error('no client of carol');
      expect(carol.base).toBe(base(2));
      expect(carol.socket.connected).toBe(true);
      const carolId = (await sql?.query<{ id: string }>(`SELECT id FROM users WHERE username = 'carol'`))
        ?.rows[0]?.id;
      const r = await api(base(0), admin, 'POST', `/api/moderation/users/${carolId}/ban`, { reason: 'spam' });
      expect(r.status).toBe(200);
      await waitFor('carol disconnected on process 2', () => !carol.socket.connected, 10_000);
    });

    it('a world that ends at a set turn is closed, tabled and rated once, though two processes hold it', async () => {
      cookies.erin = await signup(base(0), 'erin');
      cookies.finn = await signup(base(2), 'finn');
      const created = await api(base(0), cookies.erin, 'POST', '/api/worlds', {
        name: 'Short campaign',
        deadline: { mode: 'live', minutesPerPhase: 10 },
        maxPlayers: 2,
        join: true,
        ending: { until: 'turn', turn: 2, rated: true },
      });
      expect(created.status).toBe(200);
      const id = (created.body.world as { id: string }).id;
      expect((await api(base(2), cookies.finn, 'POST', `/api/worlds/${id}/join`, {})).status).toBe(200);
      // A socket on each live process (process 1 was killed above): both hold the world and see
      // every order its bots commit.
      for (const [at, who] of [
        [0, 'erin'],
        [2, 'finn'],
      ] as const) {
        const c = new TestClient(base(at), cookies[who] ?? '', id);
        clients.push(c);
        expect((await c.subscribe()).ok).toBe(true);
      }
      // Both hand their seats to stand-in bots, each on another process: the world plays itself out.
      expect(
        (await api(base(0), cookies.erin, 'POST', `/api/worlds/${id}/away`, { away: true, standIn: 'easy' }))
          .status,
      ).toBe(200);
      expect(
        (await api(base(2), cookies.finn, 'POST', `/api/worlds/${id}/away`, { away: true, standIn: 'easy' }))
          .status,
      ).toBe(200);
      const status = async () =>
        (await sql?.query<{ status: string }>('SELECT status FROM worlds WHERE id = $1', [id]))?.rows[0]
          ?.status;
      for (const end = Date.now() + 150_000; (await status()) !== 'closed'; ) {
        if (Date.now() > end) throw new Error('the world never reached its last turn');
        await new Promise((r) => setTimeout(r, 250));
      }
      const ends = await sql?.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM world_orders WHERE world_id = $1 AND "order"->>'type' = 'endWorld'`,
        [id],
      );
      expect(ends?.rows[0]?.n).toBe(1);
      const results = await sql?.query<{ result_key: string }>(
        'SELECT result_key FROM rated_results WHERE world_id = $1',
        [id],
      );
      expect(results?.rows.map((r) => r.result_key)).toEqual(['final']);
      // Two people, each rated in two pools (all, and the world's victory conditions), once.
      const changes = await sql?.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM rating_changes WHERE world_id = $1',
        [id],
      );
      expect(changes?.rows[0]?.n).toBe(4);
      const ratings = await sql?.query<{ username: string; results: number }>(
        `SELECT u.username, r.results FROM player_ratings r JOIN users u ON u.id = r.user_id
          WHERE u.username IN ('erin', 'finn') ORDER BY u.username, r.pool`,
      );
      expect(ratings?.rows.map((r) => `${r.username}:${r.results}`)).toEqual([
        'erin:1',
        'erin:1',
        'finn:1',
        'finn:1',
      ]);
      // The final table every process answers with is the same one.
      const tables = await Promise.all(
        [0, 2].map(async (at) =>
          JSON.stringify((await api(base(at), null, 'GET', `/api/worlds/${id}/final-table`)).body),
        ),
      );
      expect(new Set(tables).size).toBe(1);
    }, 240_000);
  });
});
