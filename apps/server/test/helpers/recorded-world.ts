/**
 * A world recorded by an older engine (state schema 1: the whole record sheet and every finished
 * cycle inside the state), stored the way the server stores a world: setup, log rows with events and
 * patches, snapshots with their hashes (packages/engine/test/fixtures).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Database } from '../../src/db/database.ts';

export interface Recorded {
  setup: Record<string, unknown>;
  version: number;
  finalHash: string;
  orders: { seq: number; actor: string; kind: string; order: unknown; events: unknown[]; patch: unknown[] }[];
  snapshots: { seq: number; state: { schema: number }; hash: string }[];
}

export const recorded = JSON.parse(
  gunzipSync(
    readFileSync(
      new URL(
        '../../../../packages/engine/test/fixtures/world-before-compact-state.json.gz',
        import.meta.url,
      ),
    ),
  ).toString(),
) as Recorded;

/**
 * Stores the recorded world, created by `userId`; returns its id. Written in SQL with the columns
 * the first schema had, not through the ORM, so that a test holding the database at an older
 * migration (turn-starts-migration.int) can store it too: the ORM writes every column it knows.
 */
export async function storeRecordedWorld(db: Database, userId: string): Promise<string> {
  const [world] = await db.sql<{ id: string }>(
    `INSERT INTO worlds (id, name, status, setup, rules_version, created_by_id, updated_at)
     VALUES (gen_random_uuid(), 'Recorded before the compact state', 'running', $1::jsonb, $2, $3::uuid, now())
     RETURNING id::text AS id`,
    [JSON.stringify(recorded.setup), String(recorded.setup.rulesVersion), userId],
  );
  if (!world) throw new Error('the recorded world was not stored');
  await db.sql(
    `INSERT INTO world_orders (world_id, seq, actor, kind, "order", events, patch)
     SELECT $1, r.seq, r.actor, r.kind, r.ord, r.events, r.patch
       FROM jsonb_to_recordset($2::jsonb) AS r(seq int, actor text, kind text, ord jsonb, events jsonb, patch jsonb)`,
    [world.id, JSON.stringify(recorded.orders.map(({ order, ...r }) => ({ ...r, ord: order })))],
  );
  await db.sql(
    `INSERT INTO world_snapshots (world_id, seq, state, hash)
     SELECT $1, r.seq, r.state, r.hash FROM jsonb_to_recordset($2::jsonb) AS r(seq int, state jsonb, hash text)`,
    [world.id, JSON.stringify(recorded.snapshots)],
  );
  return world.id;
}
