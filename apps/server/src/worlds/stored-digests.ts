/**
 * The digests the hub keeps of the worlds it let go of (digests.ts), also kept in the database: a
 * process that starts afresh (a deploy, a crash) has none in memory, and without them its first
 * lobby list would load every listed world, up to 250, each from its latest snapshot and a replay
 * of the orders after it, only to read a handful of fields. A stored digest is used exactly as one
 * in memory is: while the world's stored head equals the head it was taken at, which no process
 * can leave unchanged while it moves the world on (the log is append-only, digests.ts).
 *
 * Written when a world is let go of, on the background connections, never on an order's path. A
 * body that does not read as a digest (written by other code, or damaged) is no digest: the world
 * is loaded instead, as it was before digests were stored.
 */
import { WORLD_STATUSES, worldStepSchema } from '@bke/protocol';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { WorldDigest } from './digests.ts';

/** The part of a digest that only the game state knows (the head is stored in columns of its own). */
const bodySchema = z.object({
  turn: z.number().int(),
  step: worldStepSchema,
  waitingFor: z.array(z.string()),
  victory: z.enum(['basic', 'advanced']),
  players: z.array(z.object({ id: z.string(), name: z.string(), colour: z.string() })),
  // The engine's standings (model/view.ts), as the engine made them when the digest was taken.
  standings: z.array(z.looseObject({ player: z.string() })).nullable(),
});

/** Stores `digest` as the world's, unless one taken at a later version is stored already. */
export async function storeDigest(db: Database, worldId: string, digest: WorldDigest): Promise<void> {
  const { head, ...body } = digest;
  await db.sql(
    `INSERT INTO world_digests (world_id, version, status, step_key, deadline_at, body)
     VALUES ($1, $2, $3::"WorldStatus", $4, $5, $6::jsonb)
     ON CONFLICT (world_id) DO UPDATE
        SET version = EXCLUDED.version, status = EXCLUDED.status, step_key = EXCLUDED.step_key,
            deadline_at = EXCLUDED.deadline_at, body = EXCLUDED.body
      WHERE world_digests.version <= EXCLUDED.version`,
    [worldId, head.version, head.status, head.stepKey, head.deadlineAt, JSON.stringify(body)],
    'bke_store_digest',
  );
}

/** The stored digests of `worldIds` (those that have one that reads), in one statement. */
export async function readStoredDigests(
  db: Database,
  worldIds: readonly string[],
): Promise<Map<string, WorldDigest>> {
  if (worldIds.length === 0) return new Map();
  const rows = await db.sql<{
    world_id: string;
    version: number;
    status: WorldDigest['head']['status'];
    step_key: string;
    deadline_at: Date | null;
    body: unknown;
  }>(
    `SELECT world_id, version, status, step_key, deadline_at, body
       FROM world_digests WHERE world_id = ANY($1::uuid[])`,
    [worldIds],
    'bke_read_digests',
  );
  const out = new Map<string, WorldDigest>();
  for (const r of rows) {
    const body = bodySchema.safeParse(r.body);
    if (!body.success || !(WORLD_STATUSES as readonly string[]).includes(r.status)) continue;
    out.set(r.world_id, {
      head: { version: r.version, status: r.status, stepKey: r.step_key, deadlineAt: r.deadline_at },
      ...(body.data as Omit<WorldDigest, 'head'>),
    });
  }
  return out;
}
