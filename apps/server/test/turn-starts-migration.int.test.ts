/**
 * The migration that keeps a snapshot's turn in a column and the log's turn starts in a table of
 * their own fills both for a world recorded before it: the database is migrated up to the one
 * before, a recorded world is stored the old way, then the migration runs on it. Needs a PostgreSQL
 * server (the migrations' SQL is run as scripts, as the schema engine runs them); skipped without.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/database.ts';
import { readMigrations } from '../src/db/migrate.ts';
import { rebuildWorld } from '../src/worlds/rebuild.ts';
import { type Recorded, recorded, storeRecordedWorld } from './helpers/recorded-world.ts';
import { createScratchDatabase } from './helpers/test-database.ts';

const MIGRATION = '20261124133440_turn_starts';

/** The game turn a recorded snapshot's state is at. */
const turnOf = (s: Recorded['snapshots'][number]) => (s.state as unknown as { turn: number }).turn;

/** What the moderators' list read from the whole log before: each order's last `turnStarted`. */
function turnStartsInLog(orders: Recorded['orders']): { seq: number; turn: number }[] {
  const out: { seq: number; turn: number }[] = [];
  for (const o of orders) {
    if (o.kind === 'rollback') continue;
    const began = (o.events as { type?: string; turn?: number }[])
      .filter((e) => e.type === 'turnStarted' && typeof e.turn === 'number')
      .map((e) => e.turn as number);
    if (began.length > 0) out.push({ seq: o.seq, turn: Math.max(...began) });
  }
  return out;
}

const serverUrl = process.env.DATABASE_URL;
let scratch: { url: string; drop(): Promise<void> } | null = null;
let sql: pg.Client | null = null;
let db: Database | null = null;
let worldId = '';

beforeAll(async () => {
  if (!serverUrl) return;
  scratch = await createScratchDatabase(serverUrl);
  sql = new pg.Client({ connectionString: scratch.url });
  await sql.connect();
  const { migrationDirectories } = await readMigrations();
  const at = migrationDirectories.findIndex((m) => m.path === MIGRATION);
  expect(at).toBeGreaterThan(0);
  for (const m of migrationDirectories.slice(0, at)) await sql.query(m.migrationFile.content.value);
  // The account is written with the first schema's columns: the ORM's user model has columns that
  // later migrations add. The world is stored in SQL of that schema too (helpers/recorded-world.ts).
  db = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 2 });
  const user = await sql.query<{ id: string }>(
    "INSERT INTO users (id, username, username_key, password_hash) VALUES (gen_random_uuid(), 'recorder', 'recorder', 'no log-in') RETURNING id",
  );
  worldId = await storeRecordedWorld(db, user.rows[0]!.id);
  await sql.query(migrationDirectories[at]!.migrationFile.content.value);
});

afterAll(async () => {
  await db?.close();
  await sql?.end();
  await scratch?.drop();
});

describe.skipIf(!serverUrl)('the turn-starts migration on a world recorded before it', () => {
  it('gives every stored snapshot the turn of its state', async () => {
    const rows = await sql!.query<{ seq: number; turn: number }>(
      'SELECT seq, turn FROM world_snapshots WHERE world_id = $1 ORDER BY seq',
      [worldId],
    );
    expect(rows.rows).toEqual(recorded.snapshots.map((s) => ({ seq: s.seq, turn: turnOf(s) })));
    expect(new Set(rows.rows.map((r) => r.turn)).size).toBeGreaterThan(1);
  });

  it('lists the same turn starts the whole log gives, and the world still rebuilds', async () => {
    const expected = turnStartsInLog(recorded.orders);
    expect(expected.length).toBeGreaterThan(10);
    const rows = await sql!.query<{ seq: number; turn: number }>(
      'SELECT seq, turn FROM world_turn_starts WHERE world_id = $1 ORDER BY seq',
      [worldId],
    );
    expect(rows.rows).toEqual(expected);
    const report = await rebuildWorld(db!, worldId);
    expect(report.problems).toEqual([]);
  });

  it('keeps both up to date for what is stored after it', async () => {
    const seq = recorded.version + 1;
    const turn = turnOf(recorded.snapshots.at(-1)!) + 1;
    await sql!.query(
      `INSERT INTO world_orders (world_id, seq, actor, kind, "order", events, patch)
       VALUES ($1, $2, 'system', 'timeout', '{}', $3::jsonb, '[]')`,
      [worldId, seq, JSON.stringify([{ type: 'turnStarted', turn }])],
    );
    await sql!.query(
      `INSERT INTO world_orders (world_id, seq, actor, kind, "order", events, patch)
       VALUES ($1, $2, 'system', 'rollback', '{}', $3::jsonb, '[]')`,
      [worldId, seq + 1, JSON.stringify([{ type: 'turnStarted', turn: turn + 1 }])],
    );
    await sql!.query(
      `INSERT INTO world_snapshots (world_id, seq, state, hash) VALUES ($1, $2, $3::jsonb, 'h')`,
      [worldId, seq, JSON.stringify({ turn })],
    );
    const starts = await sql!.query(
      'SELECT seq, turn FROM world_turn_starts WHERE world_id = $1 AND seq > $2',
      [worldId, recorded.version],
    );
    // A rollback row restores a turn's start; it does not begin one.
    expect(starts.rows).toEqual([{ seq, turn }]);
    const snap = await sql!.query('SELECT turn FROM world_snapshots WHERE world_id = $1 AND seq = $2', [
      worldId,
      seq,
    ]);
    expect(snap.rows).toEqual([{ turn }]);
  });
});
