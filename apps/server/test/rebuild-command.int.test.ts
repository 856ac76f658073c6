/**
 * `npm run rebuild` as an operator runs it: the launcher (scripts/rebuild.mjs) builds the compiled
 * command when its sources changed and runs it. It answers --help and a bad argument as the command
 * always did, and on a stored world the compiled command, its worker threads replaying stretches of
 * the log side by side, reports exactly what rebuildWorld reports replaying it in turn: for a sound
 * world and for one with a tampered snapshot (exit codes 0 and 1).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/users.ts';
import { REPO_ROOT } from '../src/config.ts';
import { rebuildWorld } from '../src/worlds/rebuild.ts';
import { recorded, storeRecordedWorld } from './helpers/recorded-world.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

const rebuild = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['scripts/rebuild.mjs', ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });

let t: TestDatabase;
let worldId: string;

beforeAll(async () => {
  t = await openTestDatabase();
  const user = await createUser(t.db, 'operator', 'password123');
  worldId = await storeRecordedWorld(t.db, user!.id);
});
afterAll(async () => {
  await t?.dispose();
});

describe('npm run rebuild', () => {
  it('answers --help with its usage (exit 0) and a bad world id with its usage on stderr (exit 2)', () => {
    const help = rebuild(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run -s rebuild -- <worldId>/);
    const bad = rebuild(['not-a-world']);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('usage: npm run -s rebuild');
  });

  it('compiled, reports on a world what rebuildWorld reports, and a tampered snapshot with exit 1', async () => {
    // The embedded database admits one process at a time: the command gets one of its own there.
    if (!t.url) return;
    const env = { DATABASE_URL: t.url };
    const sound = rebuild([worldId], env);
    expect(sound.status).toBe(0);
    const report = await rebuildWorld(t.db, worldId);
    expect(report.problems).toEqual([]);
    expect(report.orders).toBe(recorded.version);
    expect(JSON.parse(sound.stdout)).toEqual(report);

    const seq = recorded.snapshots[2]!.seq;
    await t.db.sql(`UPDATE world_snapshots SET hash = '0000000000000000' WHERE world_id = $1 AND seq = $2`, [
      worldId,
      seq,
    ]);
    const tampered = rebuild([worldId], env);
    expect(tampered.status).toBe(1);
    const bad = await rebuildWorld(t.db, worldId);
    expect(bad.problems).toEqual([`snapshot ${seq}: stored hash does not match its state`]);
    expect(JSON.parse(tampered.stdout)).toEqual(bad);
  });
});
