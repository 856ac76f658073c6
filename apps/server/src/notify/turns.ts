/**
 * "Your move" for players who are away: when a world starts waiting for a player who has no
 * socket open on it, the server posts a line to the webhook the player set (account settings) and
 * mails them if they chose mail each time (turn-mail.ts). Once per step and player, even with several
 * server processes (the seat's `notified_key` is claimed in the database); never inside the world's
 * queue (delivery is slow and may fail). Players who chose the daily digest get it at their hour
 * (digest.ts); a reminder goes out before the deadline by both ways.
 */
import type { GameState, PlayerId } from '@bke/engine';
import type { Database } from '../db/database.ts';
import { failingLoop, tickOf } from '../db/failing-loop.ts';
import type { Mailer } from '../mail/mailer.ts';
import { afterAcknowledgement } from '../worlds/after-ack.ts';
import type { WorldHub } from '../worlds/hub.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import { type DigestRunner, digestRunner } from './digest.ts';
import { stepText } from './step-words.ts';
import { type MailRecipient, queueMoveMail, queueReminderMail, RECIPIENT_COLUMNS } from './turn-mail.ts';
import { sendWebhook, type WebhookMessage } from './webhook.ts';

export interface TurnNotifierOptions {
  /** The site's public address, for a link to the world (PUBLIC_URL); none without it. */
  publicUrl?: string | null;
  /** Whether the player has a socket open on the world, on any server process (then it sees for itself). */
  online(worldId: string, playerId: string): Promise<boolean>;
  /** Tests post to a receiver on 127.0.0.1. */
  allowPrivate?: boolean;
  /** "Your move" by mail; none: webhooks only. */
  mailer?: Mailer | null;
  log(msg: string, data?: object): void;
}

export function turnMessage(
  world: { id: string; name: string },
  state: GameState,
  deadlineAt: Date | null,
  publicUrl: string | null | undefined,
): WebhookMessage {
  const link = publicUrl ? `${publicUrl.replace(/\/+$/, '')}/#/world/${encodeURIComponent(world.id)}` : null;
  const due = deadlineAt ? ` Deadline ${deadlineAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.` : '';
  return {
    text: `Your move in ${world.name}: turn ${state.turn}, ${stepText(state.step)}.${due}${link ? ` ${link}` : ''}`,
    data: {
      worldId: world.id,
      world: world.name,
      turn: state.turn,
      step: state.step.kind,
      deadlineAt: deadlineAt?.toISOString() ?? null,
      url: link,
    },
  };
}

/** "3 h 12 min", "40 min", "50 s": the time left, in words. */
export function timeLeft(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  return `${Math.round(h / 24)} days`;
}

/** A reminder is due once a fifth of the step's time is left (Lichess warns at 80 % elapsed too). */
const REMIND_AT_LEFT = 0.2;

export interface TurnNotifier {
  /** Sends the reminders due now; returns how many went out. Run by the timer, or by tests. */
  remind(now?: Date): Promise<number>;
  /** Queues the daily digests due now; returns how many were queued. */
  digest(now?: Date): Promise<number>;
  /** Looks for due reminders and digests every `ms` (every process may; seats and digests are claimed). */
  start(ms: number): void;
  stop(): void;
  /** How many worlds this notifier keeps a record of: those this process holds, at most. */
  tracked(): number;
}

/**
 * The players a commit newly made the world wait for, who should be told: not those it waited for
 * before (told when that wait began), nor a player whose wait began with their own arrival in this
 * commit. That one just took the seat from the world's page or the lobby (the creator of a world is
 * seated at its creation) and the page they are opening shows it is their move; if they leave it,
 * the reminder before the deadline still comes.
 */
export function newlyWaitedFor(
  now: ReadonlySet<string>,
  before: ReadonlySet<string> | undefined,
  stateBefore: Pick<GameState, 'players'> | undefined,
): string[] {
  const present = stateBefore && new Set<string>(stateBefore.players.map((p) => p.id));
  return [...now].filter((p) => !before?.has(p) && (!present || present.has(p)));
}

/** A claimed seat: its player, the webhook if any, and who to mail. */
type Seat = MailRecipient & { player_id: string; webhook_url: string | null };

/** What telling players needs: the database, the worlds, the options and the worlds' names. */
interface Telling {
  readonly db: Database;
  readonly hub: WorldHub;
  readonly options: TurnNotifierOptions;
  nameOf(worldId: string): Promise<string>;
}

/**
 * Worlds whose current step has a fifth of its time left and a seat to remind (a webhook, or
 * mail) not yet reminded for that step; twenty at a time.
 */
function remindersDue(db: Database, now: Date) {
  return db.sql<{ id: string; step_key: string }>(
    `SELECT w.id, w.step_key FROM worlds w
      WHERE w.status = 'running' AND w.step_key <> '' AND w.deadline_at > $1
        AND w.deadline_at <= $1::timestamptz + make_interval(secs => w.phase_seconds * $2::float8)
        AND EXISTS (SELECT 1 FROM world_seats s JOIN users u ON u.id = s.user_id
                     WHERE s.world_id = w.id AND s.left_at IS NULL AND NOT s.absent
                       AND (u.webhook_url IS NOT NULL OR (u.email IS NOT NULL AND u.notify_mode <> 'none'))
                       AND s.reminded_key IS DISTINCT FROM w.step_key)
      LIMIT 20`,
    [now, REMIND_AT_LEFT],
  );
}

/** Reminds the seats of one world its step waits for, once per step: claimed, then told if away. */
async function remindWorld(told: Telling, worldId: string, stepKey: string, now: Date): Promise<number> {
  const { db, hub, options } = told;
  const rt = await hub.get(worldId);
  if (!rt) return 0;
  await rt.settled();
  const deadlineAt = rt.head.deadlineAt;
  if (rt.head.stepKey !== stepKey || !deadlineAt) return 0;
  const claimed = await db.sql<Seat & { ready_key: string | null }>(
    `UPDATE world_seats s SET reminded_key = $2
       FROM users u
      WHERE s.world_id = $1 AND s.left_at IS NULL AND NOT s.absent AND u.id = s.user_id
        AND s.reminded_key IS DISTINCT FROM $2
    RETURNING s.player_id, u.webhook_url, s.ready_key, ${RECIPIENT_COLUMNS}`,
    [worldId, stepKey],
  );
  const waiting = new Set<string>(rt.waitingFor());
  const candidates = claimed.filter(
    (c) => (c.webhook_url || c.email) && waiting.has(c.player_id) && c.ready_key !== stepKey,
  );
  const due = await offline(options, worldId, candidates);
  if (due.length === 0) return 0;
  const world = { id: worldId, name: await told.nameOf(worldId) };
  const base = turnMessage(world, rt.state, deadlineAt, options.publicUrl);
  const left = timeLeft(deadlineAt.getTime() - now.getTime());
  const message = { text: `Reminder, ${left} left. ${base.text}`, data: { ...base.data, reminder: true } };
  const results = await Promise.all(
    due.map(async (c) => {
      const mailed = options.mailer
        ? await queueReminderMail(db, options.mailer, c, world, stepKey, rt.state, deadlineAt, left)
        : false;
      const posted = c.webhook_url
        ? await deliver(options, worldId, c.player_id, c.webhook_url, message)
        : false;
      return mailed || posted;
    }),
  );
  return results.filter(Boolean).length;
}

/** Posts to a player's webhook; a failure is logged, never thrown. */
async function deliver(
  options: TurnNotifierOptions,
  worldId: string,
  playerId: string,
  url: string,
  message: WebhookMessage,
) {
  const r = await sendWebhook(url, message, { allowPrivate: options.allowPrivate ?? false });
  if (!r.delivered) options.log('turn notification not delivered', { worldId, playerId, reason: r.reason });
  return r.delivered;
}

/** Tells the players a commit newly waits for that it is their move, by mail and webhook. */
async function tell(told: Telling, rt: WorldRuntime, players: PlayerId[]) {
  const { db, options } = told;
  const key = rt.head.stepKey;
  const state = rt.state;
  const deadlineAt = rt.head.deadlineAt;
  // Read above as the commit left them; queried only once the order's sender has its answer.
  await afterAcknowledgement();
  // Claims the seats to be told (a webhook, or mail each time) that were not told about this step
  // yet: after most commits, so on the background connections, clear of the orders' appends.
  const claimed = await db.background.sql<Seat>(
    `UPDATE world_seats s SET notified_key = $3
       FROM users u
      WHERE s.world_id = $1 AND s.player_id = ANY($2) AND s.left_at IS NULL AND NOT s.absent
        AND s.notified_key IS DISTINCT FROM $3
        AND u.id = s.user_id
        AND (u.webhook_url IS NOT NULL OR (u.email IS NOT NULL AND u.notify_mode = 'each'))
    RETURNING s.player_id, u.webhook_url, ${RECIPIENT_COLUMNS}`,
    [rt.id, players, key],
  );
  const due = await offline(options, rt.id, claimed);
  if (due.length === 0) return;
  const world = { id: rt.id, name: await told.nameOf(rt.id) };
  const message = turnMessage(world, state, deadlineAt, options.publicUrl);
  await Promise.all(
    due.map(async (c) => {
      if (options.mailer) await queueMoveMail(db, options.mailer, c, world, key, state, deadlineAt);
      if (c.webhook_url) await deliver(options, rt.id, c.player_id, c.webhook_url, message);
    }),
  );
}

/**
 * The claimed seats whose player has no page open on the world. Asked after claiming, so that
 * with several processes only the one that claimed a seat asks the others about it.
 */
async function offline<C extends { player_id: string }>(
  options: TurnNotifierOptions,
  worldId: string,
  claimed: C[],
): Promise<C[]> {
  const online = await Promise.all(
    claimed.map((c) => options.online(worldId, c.player_id).catch(() => false)),
  );
  return claimed.filter((_c, i) => !online[i]);
}

export function watchTurns(db: Database, hub: WorldHub, options: TurnNotifierOptions): TurnNotifier {
  /** Who each world waited for after the last commit this process saw. */
  const waited = new Map<string, Set<string>>();
  const names = new Map<string, string>();
  const told: Telling = { db, hub, options, nameOf };

  hub.events.on('committed', (rt, from) => {
    const now = new Set<string>(rt.waitingFor());
    // With no record (the world was loaded since, or the process started), who was waited for is
    // read from the state the commit started from: a player waited for all along, told when the
    // wait began, is not taken as newly waited for and told again.
    const start = rt.viewers.stateAt(from);
    const before = waited.get(rt.id) ?? (start && new Set<string>(hub.engine.waitingFor(start)));
    waited.set(rt.id, now);
    const fresh = newlyWaitedFor(now, before, start);
    if (fresh.length === 0 || !rt.head.stepKey || rt.settings.status !== 'running') return;
    void tell(told, rt, fresh as PlayerId[]).catch((e) =>
      options.log('turn notification failed', { err: String(e) }),
    );
  });
  // A world let go of leaves no record here: over weeks a process sees many worlds come and go.
  hub.events.on('unloaded', (worldId) => {
    waited.delete(worldId);
    names.delete(worldId);
  });

  let timer: NodeJS.Timeout | null = null;
  let reminding = false;

  /**
   * The reminders due (remindersDue): every active seat of such a world is claimed for the step at
   * once, so the world is not looked at again; those it waits for, away and not ready, are told.
   */
  async function remind(now = new Date()): Promise<number> {
    if (reminding) return 0;
    reminding = true;
    try {
      const worlds = await remindersDue(db, now);
      let sent = 0;
      for (const w of worlds) sent += await remindWorld(told, w.id, w.step_key, now);
      return sent;
    } finally {
      reminding = false;
    }
  }

  async function nameOf(worldId: string): Promise<string> {
    let name = names.get(worldId);
    if (!name) {
      name =
        (await db.prisma.world.findUnique({ where: { id: worldId }, select: { name: true } }))?.name ??
        'a world';
      names.set(worldId, name);
    }
    return name;
  }

  const digests: DigestRunner | null = options.mailer ? digestRunner(db, hub, options.mailer, nameOf) : null;

  return {
    remind,
    tracked: () => new Set([...waited.keys(), ...names.keys()]).size,
    digest: (now) => digests?.run(now) ?? Promise.resolve(0),
    start(ms) {
      if (timer) return;
      // While the database is away every tick fails alike: told once, and once when back.
      const reminders = failingLoop('reminders', options.log);
      const digesting = failingLoop('digests', options.log);
      timer = setInterval(() => {
        void tickOf(reminders, remind);
        if (digests) void tickOf(digesting, () => digests.run());
      }, ms);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
