/**
 * `npm run migration:new -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql with the
 * SQL that takes the committed migrations to the current prisma/schema.prisma. Works offline: the
 * migrations are replayed on an in-memory embedded PostgreSQL to compute the difference.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { openDatabase } from '../db/database.ts';
import { diffSchemaAgainstMigrations } from '../db/migrate.ts';
import { MIGRATIONS_DIR } from '../db/paths.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(
  'usage: npm run migration:new -- <name>   (writes prisma/migrations/<timestamp>_<name>/migration.sql from the schema)',
);
const args = z
  .tuple([z.string().regex(/^[a-z0-9_]{1,60}$/, 'a migration name is lower_snake_case, up to 60 characters')])
  .safeParse(process.argv.slice(2));
if (!args.success) {
  console.error(`usage: npm run migration:new -- <name>\n${z.prettifyError(args.error)}`);
  process.exit(2);
}

const scratch = await openDatabase({ kind: 'embedded', dataDir: 'memory://' });
try {
  const sql = await diffSchemaAgainstMigrations(scratch.adapterFactory);
  if (!sql.trim() || /^-- This is an empty migration\.?\s*$/.test(sql.trim())) {
    console.log('The schema matches the migrations: nothing to write.');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = path.join(MIGRATIONS_DIR, `${stamp}_${args.data[0]}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'migration.sql'), sql);
    console.log(`Wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
  }
} finally {
  await scratch.close();
}
