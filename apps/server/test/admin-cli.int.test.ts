/** The first admin comes from the command line, with the password on stdin (never in argv). */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/auth/passwords.ts';
import { REPO_ROOT } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { createScratchDatabase } from './helpers/test-database.ts';

describe('admin CLI', () => {
  it('creates an admin with the password read from stdin, and refuses a short one', async () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    if (process.env.DATABASE_URL) {
      const s = await createScratchDatabase(process.env.DATABASE_URL);
      env = { DATABASE_URL: s.url };
      cleanup = s.drop;
    } else {
      const dir = await mkdtemp(path.join(tmpdir(), 'bke-admin-'));
      env = { DATA_DIR: dir };
      cleanup = () => rm(dir, { recursive: true, force: true });
    }
    try {
      const run = (input: string) =>
        spawnSync(
          process.execPath,
          ['--import', 'tsx', 'apps/server/src/cli/admin.ts', 'create', 'Theodoric'],
          {
            cwd: REPO_ROOT,
            env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
            input,
            encoding: 'utf8',
          },
        );
      const first = run('ostrogoths493\n');
      expect(first.stdout).toContain('admin Theodoric: created');
      expect(run('short\n').status).toBe(2);
      const db = await openDatabase(
        env.DATABASE_URL
          ? { kind: 'postgres', url: env.DATABASE_URL }
          : { kind: 'embedded', dataDir: env.DATA_DIR as string },
      );
      const u = await db.prisma.user.findUniqueOrThrow({ where: { usernameKey: 'theodoric' } });
      await db.close();
      expect(u.role).toBe('admin');
      expect(await verifyPassword('ostrogoths493', u.passwordHash)).toBe(true);
    } finally {
      await cleanup();
    }
  });
});
