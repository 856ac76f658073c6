/**
 * `npm run -s admin -- create <username>` (or `npx tsx apps/server/src/cli/admin.ts create <name>`):
 * creates the first admin, or makes an existing account admin. The password comes from
 * BKE_ADMIN_PASSWORD or, when that is unset, from the first line of stdin — never from argv, which
 * other users of the machine can read.
 */
import { createInterface } from 'node:readline';
import { passwordSchema, usernameSchema } from '@bke/protocol';
import { z } from 'zod';
import { ensureAdmin } from '../auth/users.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { exitOnHelp } from './help.ts';

const USAGE = 'usage: npm run -s admin -- create <username>   (password from BKE_ADMIN_PASSWORD or stdin)';
exitOnHelp(USAGE);
const args = z.tuple([z.literal('create'), usernameSchema]).safeParse(process.argv.slice(2));
if (!args.success) {
  console.error(USAGE);
  process.exit(2);
}

async function readPassword(): Promise<string> {
  if (process.env.BKE_ADMIN_PASSWORD) return process.env.BKE_ADMIN_PASSWORD;
  if (process.stdin.isTTY) process.stderr.write('Password: ');
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return '';
}

const password = passwordSchema.safeParse(await readPassword());
if (!password.success) {
  console.error('The password must be 8 to 200 characters.');
  process.exit(2);
}
const config = loadConfig();
const db = await openDatabase(config.database);
try {
  await migrateDatabase(db);
  const what = await ensureAdmin(db, args.data[1], password.data);
  console.log(`admin ${args.data[1]}: ${what}`);
} finally {
  await db.close();
}
