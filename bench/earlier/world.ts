/**
 * Runs inside the earlier tree (a child of the benchmark, its working folder that tree's root, its
 * TypeScript loaded by that tree's tsx): that tree's own benchmark builds its own 300-turn,
 * six-player world (its bench/fixtures, cached in its own .data/bench-fixtures), and that tree's
 * own code restores the world's rows into the database it is given, migrated by its own
 * migrations. Nothing of today's code is loaded here: every module is imported by its path in the
 * earlier tree, so that its own imports resolve among its own files and packages.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The database to restore the world into, as bench/lib/database.ts describes it. */
export type EarlierDatabase = { kind: 'postgres'; url: string } | { kind: 'embedded'; dataDir: string };

export interface EarlierWorld {
  worldId: string;
  /** The game turn the world was dumped at, and its log version (orders in its log). */
  turn: number;
  version: number;
  orders: number;
  snapshots: number;
  /** Whether the world was built in this run (else it came from the earlier tree's cache). */
  builtNow: boolean;
  buildSeconds: number;
  restoreSeconds: number;
}

type Rows = Record<string, Record<string, unknown>[]>;
interface EarlierFixtureSet {
  builtAt: string;
  buildSeconds: number;
  fixtures: { turn300: { worldId: string; turn: number; version: number; tables: Rows } };
}
interface EarlierDb {
  close(): Promise<void>;
}

const root = process.cwd();
const load = <T>(rel: string): Promise<T> => import(pathToFileURL(path.join(root, rel)).href) as Promise<T>;

async function prepare(db: EarlierDatabase): Promise<EarlierWorld> {
  const startedAt = Date.now();
  const { ensureFixtures } = await load<{ ensureFixtures(): Promise<string> }>('bench/fixtures/ensure.ts');
  const { readFixtures } = await load<{ readFixtures(file: string): EarlierFixtureSet }>(
    'bench/fixtures/fixture.ts',
  );
  const { restoreTables } = await load<{ restoreTables(db: EarlierDb, t: Rows): Promise<void> }>(
    'bench/fixtures/rows.ts',
  );
  const server = await load<{
    openDatabase(c: unknown): Promise<EarlierDb>;
    migrateDatabase(db: EarlierDb): Promise<void>;
  }>('apps/server/src/index.ts');

  const file = await ensureFixtures();
  const set = readFixtures(file);
  const builtNow = Date.parse(set.builtAt) >= startedAt;
  const world = set.fixtures.turn300;
  const t1 = performance.now();
  const open = await server.openDatabase(db.kind === 'postgres' ? { kind: 'postgres', url: db.url } : db);
  try {
    await server.migrateDatabase(open);
    await restoreTables(open, world.tables);
  } finally {
    await open.close();
  }
  return {
    worldId: world.worldId,
    turn: world.turn,
    version: world.version,
    orders: world.tables.world_orders?.length ?? 0,
    snapshots: world.tables.world_snapshots?.length ?? 0,
    builtNow,
    buildSeconds: set.buildSeconds,
    restoreSeconds: Number(((performance.now() - t1) / 1000).toFixed(1)),
  };
}

if (!process.send) throw new Error('bench/earlier/world.ts runs as a child of the benchmark');
process.once('message', (db: EarlierDatabase) => {
  prepare(db).then(
    (value) => process.send?.({ ok: true, value }, () => process.exit(0)),
    (e: unknown) =>
      process.send?.({ ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }, () =>
        process.exit(1),
      ),
  );
});
