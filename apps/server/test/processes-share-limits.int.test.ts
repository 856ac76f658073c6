/**
 * Two real server processes on one PostgreSQL database count the same limits: an address that
 * spends its allowance on one process finds nothing left on the other, where a limit kept in each
 * process's memory would grant the allowance again per process. Skipped on the embedded database,
 * which serves one process.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './helpers/server-process.ts';
import { createScratchDatabase } from './helpers/test-database.ts';

const serverUrl = process.env.DATABASE_URL;
let scratch: { url: string; drop(): Promise<void> } | null = null;
const procs: ServerProcess[] = [];

beforeAll(async () => {
  if (!serverUrl) return;
  scratch = await createScratchDatabase(serverUrl);
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await scratch?.drop();
});

const forgot = (base: string) =>
  fetch(`${base}/api/auth/forgot`, {
    method: 'POST',
    headers: { 'x-bke-csrf': '1', 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'someone' }),
  });

describe.runIf(serverUrl)('two server processes on one PostgreSQL', () => {
  it('share one allowance per address: 4 requests pass in all, not 4 on each', async () => {
    const env = {
      DATABASE_URL: scratch?.url ?? '',
      FORGOT_ATTEMPTS_BURST: '4',
      FORGOT_ATTEMPTS_PER_MINUTE: '0.01',
    };
    // One after the other: the first migrates the fresh database.
    procs.push(startServerProcess(env));
    await procs[0]?.ready(90_000);
    procs.push(startServerProcess(env));
    await procs[1]?.ready(90_000);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await forgot(procs[i % 2]?.base ?? '')).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.slice(4)).toEqual([429, 429, 429, 429]);
    const last = await forgot(procs[1]?.base ?? '');
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    // The count is the database's: one row for the address, at the allowance or past it.
    const sql = new pg.Client({ connectionString: scratch?.url });
    await sql.connect();
    try {
      const rows = await sql.query<{ points: number }>(
        "SELECT points FROM rate_limits WHERE key LIKE 'forgot:%'",
      );
      expect(rows.rows).toHaveLength(1);
      expect(rows.rows[0]?.points).toBeGreaterThanOrEqual(4);
    } finally {
      await sql.end();
    }
  });
});
