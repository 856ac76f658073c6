/**
 * The admin CLI's migration commands: where the database stands against prisma/migrations, and
 * marking a failed migration resolved once an operator has looked (Prisma's `migrate status` and
 * `migrate resolve`, which need the native engine this project does without).
 */
import type { Database } from '../../db/database.ts';
import {
  failedMigrationAdvice,
  type MigrationState,
  migrationStatus,
  resolveMigration,
} from '../../db/migration-status.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Outcome } from './accounts.ts';
import { recordOperatorAction } from './operator-audit.ts';

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

function line(s: MigrationState): string {
  switch (s.state) {
    case 'applied':
      return `applied  ${s.name}  ${iso(s.at)}`;
    case 'pending':
      return `pending  ${s.name}${s.attempts.length ? `  (${s.attempts.length} attempt(s) rolled back, the last ${iso(s.attempts.at(-1)?.startedAt ?? new Date())})` : ''}`;
    case 'failed':
      return `FAILED   ${s.name}  started ${iso(s.record.startedAt)}, neither finished nor rolled back`;
    case 'unknown':
      return `applied  ${s.name}  ${iso(s.at)}  (not in this checkout's prisma/migrations: a newer version applied it)`;
  }
}

/** Exit code 0 when every migration is applied, 1 when some are pending or failed. */
export async function showMigrations(db: Database, dir?: string): Promise<Outcome> {
  const states = await migrationStatus(db.sql, dir);
  const n = (state: MigrationState['state']) => states.filter((s) => s.state === state).length;
  const lines = [
    `${n('applied') + n('unknown')} applied, ${n('pending')} pending, ${n('failed')} failed.`,
    ...states.map(line),
  ];
  for (const s of states) if (s.state === 'failed') lines.push('', failedMigrationAdvice(s.name));
  if (n('pending') > 0 && n('failed') === 0)
    lines.push('', 'Run `npm run migrate` (or start the server) to apply the pending ones.');
  return { code: n('pending') + n('failed') > 0 ? 1 : 0, out: lines.join('\n') };
}

export async function resolveFailedMigration(
  db: Database,
  name: string,
  as: 'rolled-back' | 'applied',
  reason: string,
): Promise<Outcome> {
  return inTransaction(db, async (tx) => {
    if (!(await resolveMigration(tx.sql, name, as)))
      return { code: 1, out: `${name} has no failed attempt to resolve; nothing was changed.` };
    await recordOperatorAction(tx, 'migration.resolve', reason, { params: { migration: name, as } });
    return {
      code: 0,
      out:
        as === 'rolled-back'
          ? `${name} is marked rolled back: the next migration applies it again.`
          : `${name} is marked applied.`,
    };
  });
}
