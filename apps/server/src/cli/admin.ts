/**
 * `npm run -s admin -- <command>`: an operator's tools on DATABASE_URL (or the embedded database,
 * which must not be in use by a running server: it admits one process). Passwords never come from
 * argv, which other users of the machine can read. Every change is recorded in the audit log with
 * the command line as its actor. `--help` lists the commands.
 */
import { parseArgs } from 'node:util';
import { reasonSchema, usernameSchema } from '@bke/protocol';
import { z } from 'zod';
import { runningServer } from '../backup/embedded-control.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { siteLinkKey } from '../mail/link-key.ts';
import { makeMailer } from '../mail/mailer.ts';
import { createAdmin, endSessions, type Outcome, resetPassword } from './admin/accounts.ts';
import { resolveFailedMigration, showMigrations } from './admin/migrations.ts';
import { OUTBOX_FILTERS, retryOutbox, showOutbox } from './admin/outbox.ts';
import { readNewPassword } from './admin/password-prompt.ts';
import { exitOnHelp } from './help.ts';

const USAGE = `usage: npm run -s admin -- <command> [--reason <why>]

  create <username>            create an admin, or make an existing account admin
  reset-password <username>    set a new password; every session of the account ends
  end-sessions <username>      log an account out everywhere
  migrations                   applied, pending and failed migrations (exit 1 unless all applied)
  migrations resolve <name> --rolled-back | --applied
                               mark a failed migration resolved, once you have looked
  outbox [--waiting | --failed | --sent] [--limit <n>]
                               the mail outbox, newest first (default: all, 20 rows)
  outbox retry <id>... | --all-failed
                               send given-up mail again, with its full number of tries

Passwords: typed twice without echo on a terminal, else the first line of stdin, or
BKE_ADMIN_PASSWORD; never an argument. --reason goes into the audit log with each change
(default: "command line"). Runs on DATABASE_URL, else the embedded database in DATA_DIR
(stop the server first: the embedded database admits one process).`;

const REASON_DEFAULT = 'command line';
const reason = reasonSchema.default(REASON_DEFAULT);
const flags = { reason, help: z.boolean().optional() };

/** One schema per command, over `parseArgs`' positionals and values. */
const commandSchema = z.union([
  z.object({
    positionals: z.tuple([z.enum(['create', 'reset-password', 'end-sessions']), usernameSchema]),
    values: z.object(flags).strict(),
  }),
  z.object({ positionals: z.tuple([z.literal('migrations')]), values: z.object(flags).strict() }),
  z.object({
    positionals: z.tuple([z.literal('migrations'), z.literal('resolve'), z.string().regex(/^\d{14}_\w+$/)]),
    values: z
      .object({ ...flags, 'rolled-back': z.boolean().optional(), applied: z.boolean().optional() })
      .strict()
      .refine(
        (v) => Boolean(v['rolled-back']) !== Boolean(v.applied),
        'give exactly one of --rolled-back, --applied',
      ),
  }),
  z.object({
    positionals: z.tuple([z.literal('outbox')]),
    values: z
      .object({
        ...flags,
        waiting: z.boolean().optional(),
        failed: z.boolean().optional(),
        sent: z.boolean().optional(),
        limit: z.coerce.number().int().min(1).max(1000).default(20),
      })
      .strict()
      .refine((v) => [v.waiting, v.failed, v.sent].filter(Boolean).length <= 1, 'give at most one filter'),
  }),
  z.object({
    positionals: z.tuple([z.literal('outbox'), z.literal('retry')], z.string().regex(/^\d{1,18}$/)),
    values: z.object({ ...flags, 'all-failed': z.boolean().optional() }).strict(),
  }),
]);

function parseCommand(argv: string[]) {
  try {
    const raw = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        reason: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        'rolled-back': { type: 'boolean' },
        applied: { type: 'boolean' },
        waiting: { type: 'boolean' },
        failed: { type: 'boolean' },
        sent: { type: 'boolean' },
        limit: { type: 'string' },
        'all-failed': { type: 'boolean' },
      },
    });
    // parseArgs leaves absent options out; zod's .strict() refuses options a command does not take.
    const result = commandSchema.safeParse({ positionals: raw.positionals, values: { ...raw.values } });
    return result.success
      ? result
      : {
          success: false as const,
          words: [...new Set(result.error.issues.map((i) => i.message))].join('; '),
        };
  } catch (e) {
    return { success: false as const, words: (e as Error).message };
  }
}

exitOnHelp(USAGE);
const parsed = parseCommand(process.argv.slice(2));
if (!parsed.success) {
  console.error(`${USAGE}\n`);
  console.error(`Not understood: ${parsed.words}`);
  process.exit(2);
}
const { positionals, values } = parsed.data;
const [command] = positionals;

// The password is asked for before the database opens: nothing waits on a person typing.
let password = '';
if (command === 'create' || command === 'reset-password') {
  const got = await readNewPassword();
  if (!got.ok) {
    console.error(got.words);
    process.exit(2);
  }
  password = got.password;
}

const config = loadConfig();
if (config.database.kind === 'embedded') {
  const server = await runningServer(config.database.dataDir);
  if (server) {
    console.error(
      `A server (process ${server.pid}) is running on ${config.database.dataDir}, and the embedded database admits one process: stop it first.`,
    );
    process.exit(1);
  }
}
const db = await openDatabase(config.database);
let outcome: Outcome;
try {
  const why = values.reason;
  const name = positionals[1] ?? '';
  if (command === 'create') {
    // The first admin of a new site: the database may not exist yet.
    await migrateDatabase(db);
    outcome = await createAdmin(db, name, password, why);
  } else if (command === 'reset-password') {
    const mailer = makeMailer(
      config.mail.publicUrl,
      () => {},
      config.limits.mail,
      await siteLinkKey(db, config.mail.linkKey),
    );
    outcome = await resetPassword(db, mailer, name, password, why);
  } else if (command === 'end-sessions') outcome = await endSessions(db, name, why);
  else if (command === 'migrations') {
    outcome =
      positionals[1] === 'resolve'
        ? await resolveFailedMigration(
            db,
            positionals[2] ?? '',
            'applied' in values && values.applied ? 'applied' : 'rolled-back',
            why,
          )
        : await showMigrations(db);
  } else if (positionals[1] === 'retry') {
    const ids = positionals.slice(2);
    const all = 'all-failed' in values && values['all-failed'];
    if (ids.length > 0 === Boolean(all)) {
      console.error('outbox retry: give the ids of given-up mail, or --all-failed (not both).');
      process.exit(2);
    }
    outcome = await retryOutbox(db, all ? 'all-failed' : ids, why);
  } else {
    const v = values as { waiting?: boolean; failed?: boolean; sent?: boolean; limit?: number };
    const filter = OUTBOX_FILTERS.find((f) => f !== 'all' && v[f]) ?? 'all';
    outcome = await showOutbox(db, filter, v.limit ?? 20);
  }
} finally {
  await db.close();
}
console.log(outcome.out);
process.exit(outcome.code);
