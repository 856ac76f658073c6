/**
 * `npm run migrate` and `npm run rebuild` refuse an embedded database a server is running on (it
 * admits one process), naming the server's process and saying what to do instead; a file a crashed
 * server left behind (its process gone) does not hold them back. The running server is this test
 * process, named in the file a server writes beside its database (backup/embedded-control.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlFileOf } from '../src/backup/embedded-control.ts';
import { REPO_ROOT } from '../src/config.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'bke-in-use-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs a command-line tool from its sources on the embedded database in `dataDir`. */
const run = (script: string, args: string[], dataDir: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', `apps/server/src/cli/${script}`, ...args], {
    cwd: REPO_ROOT,
    // No DATABASE_URL: the embedded database.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 300_000,
  });

const served = async (name: string, pid: number) => {
  const dataDir = path.join(dir, name);
  await writeFile(controlFileOf(dataDir), JSON.stringify({ pid, port: 9, token: 'x'.repeat(43) }));
  return dataDir;
};

describe('commands on an embedded database a server is running on', () => {
  it('npm run migrate refuses, and says to let the server migrate or to stop it first', async () => {
    const dataDir = await served('migrate', process.pid);
    const r = run('migrate.ts', [], dataDir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`A server (process ${process.pid}) is running on ${dataDir}`);
    expect(r.stderr).toContain('npm run migrate did not open it');
    expect(r.stderr).toContain('MIGRATE_ON_START=1');
  });

  it('npm run rebuild refuses, and says how to check a copy while the site runs', async () => {
    const dataDir = await served('rebuild', process.pid);
    const r = run('rebuild.ts', ['--all'], dataDir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`A server (process ${process.pid}) is running on ${dataDir}`);
    expect(r.stderr).toContain('npm run db:backup');
  });

  it('a file left by a server that is gone does not hold npm run migrate back', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const dataDir = await served('left-behind', Number(gone.stdout));
    const r = run('migrate.ts', [], dataDir);
    expect(r.stderr).not.toContain('is running on');
    expect(r.status).toBe(0);
  }, 300_000);
});
