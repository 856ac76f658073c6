/**
 * Which database the benchmark runs on, like the product: the PostgreSQL server of DATABASE_URL
 * when set (each run makes its own databases there and drops them), else the embedded PostgreSQL
 * (PGlite, in-process, files in a temporary folder per process).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pg } from '@bke/server';

export type BenchDatabase = { kind: 'postgres'; url: string } | { kind: 'embedded'; dataDir: string };

const serverUrl = (): string | null => {
  const url = process.env.DATABASE_URL?.trim();
  return url ? url : null;
};

export const databaseKind = (): BenchDatabase['kind'] => (serverUrl() ? 'postgres' : 'embedded');

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: serverUrl() ?? '' });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A fresh, empty database for one process of this run; `drop` removes it. */
export async function freshDatabase(role: string): Promise<BenchDatabase & { drop(): Promise<void> }> {
  const base = serverUrl();
  if (!base) {
    const dataDir = mkdtempSync(path.join(tmpdir(), `bke-bench-${role}-`));
    return { kind: 'embedded', dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `bke_bench_${role}_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
