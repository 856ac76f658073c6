import { checkBackupFile, saveBackupStream, writeBackupFile } from '../backup/backup-file.ts';
import { runningServer } from '../backup/embedded-control.ts';
import { exportDatabase } from '../backup/export.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { exitOnHelp, fileArgument } from './help.ts';

const USAGE = `usage: npm run -s db:backup -- <file>
  Writes a backup of DATABASE_URL (the embedded database in DATA_DIR when unset) to <file>, gzip-compressed
  JSON lines, while the site runs. A relative <file> is taken from the folder you ran npm in.
  Restore with: npm run -s db:restore -- <file>   (into an empty database)`;
exitOnHelp(USAGE);
const file = fileArgument(USAGE);
const config = loadConfig();

let how: string;
const server = config.database.kind === 'embedded' ? await runningServer(config.database.dataDir) : null;
if (server) {
  const res = await fetch(`http://127.0.0.1:${server.port}/backup`, {
    headers: { authorization: `Bearer ${server.token}` },
  });
  if (!res.ok || !res.body) {
    console.error(
      `The running server (process ${server.pid}) refused the backup: ${res.status} ${await res.text()}`,
    );
    process.exit(1);
  }
  await saveBackupStream(file, res.body);
  how = `taken by the running server (process ${server.pid})`;
} else {
  const db = await openDatabase(config.database);
  try {
    await writeBackupFile(file, (write) => exportDatabase(db, write));
  } finally {
    await db.close();
  }
  how = config.database.kind === 'postgres' ? 'from DATABASE_URL' : `from ${config.database.dataDir}`;
}
const checked = await checkBackupFile(file);
if (!checked) {
  console.error(`The backup in ${file} is not whole (it has no closing line): do not rely on it.`);
  process.exit(1);
}
const tables = checked.header.tables.filter((t) => t.rows > 0).length;
console.log(
  `Backup written to ${file}: ${checked.rows} rows in ${tables} tables, ${how}, at ${checked.header.createdAt} (migration ${checked.header.migrations.at(-1) ?? 'none'}).`,
);
