/** `npm run migrate`: applies pending migrations to DATABASE_URL, or to the embedded database. */
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateDatabase } from '../db/migrate.ts';

const config = loadConfig();
const db = await openDatabase(config.database);
try {
  const applied = await migrateDatabase(db.adapterFactory);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
} finally {
  await db.close();
}
