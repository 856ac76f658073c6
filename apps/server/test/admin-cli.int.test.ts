/**
 * The admin CLI, spawned as an operator runs it, against a real database (a scratch database on
 * DATABASE_URL's server, else an embedded one in a temporary folder, which the test opens only
 * while the CLI is not running: it admits one process).
 */
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COMMAND_LINE_ACTOR_ID } from '@bke/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/auth/passwords.ts';
import { createSession } from '../src/auth/sessions.ts';
import { createUser } from '../src/auth/users.ts';
import { REPO_ROOT } from '../src/config.ts';
import { type Database, type DatabaseConfig, openDatabase } from '../src/db/database.ts';
import { createScratchDatabase } from './helpers/test-database.ts';

let env: Record<string, string>;
let config: DatabaseConfig;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    const s = await createScratchDatabase(process.env.DATABASE_URL);
    env = { DATABASE_URL: s.url };
    config = { kind: 'postgres', url: s.url, poolSize: 2 };
    cleanup = s.drop;
  } else {
    const dir = await mkdtemp(path.join(tmpdir(), 'bke-admin-'));
    env = { DATA_DIR: path.join(dir, 'db') };
    config = { kind: 'embedded', dataDir: path.join(dir, 'db') };
    cleanup = () => rm(dir, { recursive: true, force: true });
  }
});
afterAll(() => cleanup());

const ADMIN = ['--import', 'tsx', 'apps/server/src/cli/admin.ts'];
const childEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env });

function admin(args: string[], input = ''): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [...ADMIN, ...args], {
    cwd: REPO_ROOT,
    env: childEnv(),
    input,
    encoding: 'utf8',
  });
}

/** Opens the database for `fn` alone, and closes it before the next CLI run. */
async function withDb<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(config);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

const auditOf = (db: Database, action: string) =>
  db.sql<{
    actor_id: string;
    reason: string;
    params: Record<string, unknown>;
    target_user_id: string | null;
  }>(
    `SELECT actor_id::text, reason, params, target_user_id::text FROM moderation_actions WHERE action = $1 ORDER BY id`,
    [action],
  );

describe('admin CLI', () => {
  it('creates an admin with the password read from stdin, audited, and refuses a short one', async () => {
    const first = admin(['create', 'Theodoric', '--reason', 'the first admin'], 'ostrogoths493\n');
    expect(first.stdout).toContain('admin Theodoric: created');
    expect(first.status).toBe(0);
    const short = admin(['create', 'Odoacer'], 'short\n');
    expect(short.status).toBe(2);
    expect(short.stderr).toContain('8 to 200 characters');
    await withDb(async (db) => {
      const u = await db.prisma.user.findUniqueOrThrow({ where: { usernameKey: 'theodoric' } });
      expect(u.role).toBe('admin');
      expect(await verifyPassword('ostrogoths493', u.passwordHash)).toBe(true);
      expect(await db.prisma.user.findUnique({ where: { usernameKey: 'odoacer' } })).toBeNull();
      const audit = await auditOf(db, 'user.create');
      expect(audit).toEqual([
        {
          actor_id: COMMAND_LINE_ACTOR_ID,
          reason: 'the first admin',
          params: expect.objectContaining({ username: 'Theodoric', role: 'admin' }),
          target_user_id: u.id,
        },
      ]);
    });
  });

  it.skipIf(!existsSync('/usr/bin/script'))(
    'asks for the password twice on a terminal and never shows it',
    async () => {
      // `script` gives the CLI a real pseudo-terminal: whatever the terminal echoes comes back out.
      const child = spawn(
        '/usr/bin/script',
        ['-qec', `${JSON.stringify(process.execPath)} ${ADMIN.join(' ')} create Amalasuntha`, '/dev/null'],
        { cwd: REPO_ROOT, env: { ...childEnv(), TERM: 'dumb' } },
      );
      let seen = '';
      const waitFor = (text: string) =>
        new Promise<void>((resolve, reject) => {
          const check = () => {
            if (seen.includes(text)) {
              child.stdout.off('data', onData);
              child.off('exit', onExit);
              resolve();
            }
          };
          const onData = (b: Buffer) => {
            seen += b.toString();
            check();
          };
          const onExit = () => reject(new Error(`exited before "${text}": ${seen}`));
          child.stdout.on('data', onData);
          child.on('exit', onExit);
          check();
        });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      await waitFor('New password:');
      child.stdin.write('ravenna-palace-526\r');
      await waitFor('The same again:');
      child.stdin.write('ravenna-palace-526\r');
      await waitFor('admin Amalasuntha: created');
      expect(await exited).toBe(0);
      expect(seen).not.toContain('ravenna');
      await withDb(async (db) => {
        const u = await db.prisma.user.findUniqueOrThrow({ where: { usernameKey: 'amalasuntha' } });
        expect(await verifyPassword('ravenna-palace-526', u.passwordHash)).toBe(true);
      });
    },
  );

  it('resets a password: the old one stops working, every session ends, the address is told, audited', async () => {
    const userId = await withDb(async (db) => {
      const u = await createUser(db, 'Boethius', 'consolation1');
      if (!u) throw new Error('no user');
      await db.prisma.user.update({ where: { id: u.id }, data: { email: 'boethius@example.org' } });
      await createSession(db, u.id);
      await createSession(db, u.id);
      return u.id;
    });
    const r = admin(['reset-password', 'boethius', '--reason', 'asked by mail'], 'philosophy524\n');
    expect(r.stdout).toContain(
      'Boethius has a new password; 2 session(s) ended, and their address was told.',
    );
    expect(r.status).toBe(0);
    expect(admin(['reset-password', 'nobody'], 'philosophy524\n').status).toBe(1);
    await withDb(async (db) => {
      const u = await db.prisma.user.findUniqueOrThrow({ where: { id: userId } });
      expect(await verifyPassword('philosophy524', u.passwordHash)).toBe(true);
      expect(await verifyPassword('consolation1', u.passwordHash)).toBe(false);
      expect(await db.prisma.session.count({ where: { userId } })).toBe(0);
      const told = await db.sql<{ kind: string }>(`SELECT kind FROM mail_outbox WHERE user_id = $1::uuid`, [
        userId,
      ]);
      expect(told.map((m) => m.kind)).toEqual(['password_changed']);
      const audit = await auditOf(db, 'user.resetPassword');
      expect(audit).toMatchObject([
        {
          actor_id: COMMAND_LINE_ACTOR_ID,
          reason: 'asked by mail',
          target_user_id: userId,
          params: { sessions: 2 },
        },
      ]);
    });
  });

  it('ends every session of an account, audited, and says when the account does not exist', async () => {
    const userId = await withDb(async (db) => {
      const u = await createUser(db, 'Cassiodorus', 'variae-537x');
      if (!u) throw new Error('no user');
      for (let i = 0; i < 3; i++) await createSession(db, u.id);
      return u.id;
    });
    const r = admin(['end-sessions', 'Cassiodorus', '--reason', 'stolen phone']);
    expect([r.status, r.stdout.trim()]).toEqual([0, 'Cassiodorus: 3 session(s) ended.']);
    const missing = admin(['end-sessions', 'Nobody']);
    expect([missing.status, missing.stdout.trim()]).toEqual([
      1,
      'No account is named Nobody; nothing was changed.',
    ]);
    await withDb(async (db) => {
      expect(await db.prisma.session.count({ where: { userId } })).toBe(0);
      expect(await auditOf(db, 'user.endSessions')).toMatchObject([
        { reason: 'stolen phone', target_user_id: userId, params: { sessions: 3 } },
      ]);
    });
  });

  it('shows migrations applied, pending and failed, and resolves a failed one', async () => {
    const ok = admin(['migrations']);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^\d+ applied, 0 pending, 0 failed\./);
    // The last migration as if it had never run, then as if its attempt had died half-way.
    const last = await withDb(async (db) => {
      const rows = await db.sql<{ migration_name: string }>(
        `DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)
         RETURNING migration_name`,
      );
      return rows[0]?.migration_name ?? '';
    });
    const pending = admin(['migrations']);
    expect(pending.status).toBe(1);
    expect(pending.stdout).toContain(`pending  ${last}`);
    expect(pending.stdout).toContain('Run `npm run migrate`');
    await withDb((db) =>
      db.sql(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count)
         VALUES ('x1', 'x', $1, now(), 0)`,
        [last],
      ),
    );
    const failed = admin(['migrations']);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain(`FAILED   ${last}`);
    expect(failed.stdout).toContain(`migrations resolve ${last} --rolled-back`);
    expect(admin(['migrations', 'resolve', last]).status).toBe(2);
    const resolved = admin(['migrations', 'resolve', last, '--rolled-back', '--reason', 'none of it ran']);
    expect([resolved.status, resolved.stdout.trim()]).toEqual([
      0,
      `${last} is marked rolled back: the next migration applies it again.`,
    ]);
    expect(admin(['migrations', 'resolve', last, '--applied']).status).toBe(1);
    await withDb(async (db) => {
      expect(await auditOf(db, 'migration.resolve')).toMatchObject([
        { reason: 'none of it ran', params: { migration: last, as: 'rolled-back' } },
      ]);
    });
  });

  it('shows the outbox and puts given-up mail back in the queue, audited', async () => {
    const ids = await withDb(async (db) => {
      const rows = await db.sql<{ id: string }>(
        `INSERT INTO mail_outbox (kind, to_address, subject, text, html, attempts, failed_at, last_error)
         VALUES ('verify_email', 'a@example.org', 'Confirm your address', 'x', 'x', 12, now(), '554 relay refused'),
                ('move', 'b@example.org', 'Your move in Gaul', 'x', 'x', 0, NULL, NULL)
         RETURNING id::text AS id`,
      );
      return rows.map((r) => r.id);
    });
    const [failedId, waitingId] = ids as [string, string];
    const all = admin(['outbox']);
    expect(all.status).toBe(0);
    expect(all.stdout).toMatch(/Outbox: \d+ waiting, 1 given up, 0 sent/);
    const failed = admin(['outbox', '--failed']);
    expect(failed.stdout).toContain(`#${failedId}  verify_email  to a@example.org`);
    expect(failed.stdout).toContain('last error: 554 relay refused');
    expect(failed.stdout).not.toContain(`#${waitingId} `);
    expect(admin(['outbox', 'retry', waitingId]).status).toBe(1);
    const retried = admin(['outbox', 'retry', failedId, '--reason', 'relay fixed']);
    expect(retried.status).toBe(0);
    expect(retried.stdout).toContain(`1 message(s) back in the queue (#${failedId})`);
    expect(admin(['outbox', 'retry', '--all-failed']).stdout).toContain('No mail was given up');
    await withDb(async (db) => {
      const [row] = await db.sql<{ failed_at: Date | null; attempts: number; due: boolean }>(
        `SELECT failed_at, attempts, next_attempt_at <= now() AS due FROM mail_outbox WHERE id = $1::bigint`,
        [failedId],
      );
      expect(row).toEqual({ failed_at: null, attempts: 0, due: true });
      expect(await auditOf(db, 'mail.retry')).toMatchObject([
        { reason: 'relay fixed', params: { ids: [failedId] } },
      ]);
    });
  });

  it('refuses what it does not understand, and --help lists every command', () => {
    for (const bad of [
      ['frobnicate'],
      ['end-sessions'],
      ['outbox', '--bogus'],
      ['create', 'x y'],
      ['outbox', 'retry', 'abc'],
    ])
      expect(admin(bad).status, bad.join(' ')).toBe(2);
    const help = admin(['--help']);
    expect(help.status).toBe(0);
    for (const c of ['create', 'reset-password', 'end-sessions', 'migrations', 'outbox retry'])
      expect(help.stdout).toContain(c);
  });
});
