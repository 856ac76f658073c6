/**
 * The site's link key (link-signature.ts): the same for every server process of a site, so it lives
 * in the database (table link_keys, one row). The first process to start writes it; every process
 * reads it once at start-up and keeps it in memory. It is backed up with the rest (backup/), so
 * links sent before a restore keep working after it; whoever holds a backup holds the password
 * hashes too, and a MAC alone opens nothing (the link's stored row decides).
 *
 * An operator may give the key instead (LINK_KEY, config.ts): then that key signs and checks every
 * link and the table's row is neither written nor read.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';

export async function siteLinkKey(db: Database, given: Buffer | null = null): Promise<Buffer> {
  if (given) return given;
  await db.sql('INSERT INTO link_keys (id, key) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [
    randomBytes(32).toString('base64url'),
  ]);
  const [row] = await db.sql<{ key: string }>('SELECT key FROM link_keys WHERE id = 1');
  if (!row) throw new Error('link_keys holds no key after writing one');
  return Buffer.from(row.key, 'base64url');
}
