/**
 * Moderation: the routes moderators and admins use to keep long-running worlds healthy,
 * the players' report route, and the audit log. Every body is parsed with these schemas on the
 * server; every action needs a reason, which lands in the append-only audit log.
 */
import { z } from 'zod';
import { botLevelSchema, deadlineSettingsSchema } from './lobby.ts';
import { freeText, lineText } from './text.ts';

/** Who may call a moderation route: `moderator` means moderators and admins; `user` any account. */
const MODERATION_LEVELS = ['user', 'moderator', 'admin'] as const;
export type ModerationLevel = (typeof MODERATION_LEVELS)[number];

/** Every action a moderator takes through the moderation routes, one vocabulary for the server, the log and the client. */
export const MODERATION_ACTIONS = [
  'world.pause',
  'world.resume',
  'world.deadline',
  'world.resolve',
  'world.settings',
  'world.close',
  'world.rollback',
  'world.fromPosition',
  'seat.remove',
  'seat.handOver',
  'seat.absent',
  'seat.allowRejoin',
  'user.ban',
  'user.unban',
  'user.mute',
  'user.unmute',
  'user.role',
  'chat.delete',
  'report.resolve',
] as const;
export type ModerationActionName = (typeof MODERATION_ACTIONS)[number];

/**
 * What an operator does on the server's command line (`npm run admin`), recorded in the same audit
 * log as the moderators' actions, with the command line as the actor.
 */
const OPERATOR_ACTIONS = [
  'user.create',
  'user.resetPassword',
  'user.endSessions',
  'mail.retry',
  'migration.resolve',
] as const;
export type OperatorActionName = (typeof OPERATOR_ACTIONS)[number];

/** Every action the audit log holds. */
const AUDIT_ACTIONS = [...MODERATION_ACTIONS, ...OPERATOR_ACTIONS] as const;
export type AuditActionName = (typeof AUDIT_ACTIONS)[number];

/** The actor id of an operator's action on the command line: no account did it. */
export const COMMAND_LINE_ACTOR_ID = '00000000-0000-0000-0000-000000000000';

const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** Why: every moderator action carries one (shown to players where they are told). */
export const reasonSchema = freeText().trim().min(3).max(500);
const withReason = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ reason: reasonSchema, ...shape }).strict();
const isoDate = z.iso.datetime({ offset: true });

// ---- request bodies ----

const reasonBodySchema = withReason({});
const deadlineChangeSchema = withReason({
  /** Move the current deadline by this many seconds (negative shortens); or set it outright. */
  shiftSeconds: z
    .number()
    .int()
    .min(-14 * 86_400)
    .max(14 * 86_400)
    .optional(),
  deadlineAt: isoDate.optional(),
}).refine((b) => (b.shiftSeconds === undefined) !== (b.deadlineAt === undefined), {
  message: 'give exactly one of shiftSeconds and deadlineAt',
});
const worldSettingsChangeSchema = withReason({
  deadline: deadlineSettingsSchema.optional(),
  earlyResolution: z.boolean().optional(),
}).refine((b) => b.deadline !== undefined || b.earlyResolution !== undefined, {
  message: 'change at least one setting',
});
const rollbackSchema = withReason({
  /** The game turn to return to: the world is put back exactly as it was when that turn began. */
  turn: z.number().int().min(0).max(10_000),
});
/**
 * A new world started from a position (docs/world-from-position.md): an analysis board's shared
 * link (the whole address or its code after `#/analysis/`), and who plays each of its players —
 * an account by name or a bot of a level. Every player of the position still in the game is given
 * a seat; the seed draws the world's dice from the position on (a fresh one when omitted).
 */
const positionSeatSchema = z.union([
  z.object({ playerId: z.string().regex(/^p\d{1,3}$/), username: lineText().trim().min(3).max(24) }).strict(),
  z.object({ playerId: z.string().regex(/^p\d{1,3}$/), bot: botLevelSchema }).strict(),
]);
export type PositionSeat = z.infer<typeof positionSeatSchema>;
const worldFromPositionSchema = withReason({
  name: lineText().trim().min(3).max(60),
  position: z.string().trim().min(1).max(400_000),
  seats: z.array(positionSeatSchema).min(1).max(50),
  seed: lineText().min(1).max(64).optional(),
  deadline: deadlineSettingsSchema.optional(),
});
export type WorldFromPosition = z.infer<typeof worldFromPositionSchema>;
const handOverSchema = withReason({ username: lineText().trim().min(3).max(24) });
/** Absent (or present again); `standIn`: a bot of that level plays the seat meanwhile (null: default orders). */
const absentSchema = withReason({
  absent: z.boolean(),
  standIn: botLevelSchema.nullable().optional(),
});
/** `until` null or omitted: until lifted by hand. */
const banSchema = withReason({ until: isoDate.nullable().optional() });
const muteSchema = withReason({ until: isoDate.nullable().optional() });
const roleChangeSchema = withReason({ role: z.enum(['player', 'moderator', 'admin']) });
const reportResolveSchema = withReason({ status: z.enum(['resolved', 'dismissed']) });
const reportCreateSchema = z
  .object({
    reason: reasonSchema,
    worldId: z.uuid().optional(),
    /** A chat message's id (as the chat delivers it). */
    chatMessageId: z
      .string()
      .regex(/^\d{1,18}$/)
      .optional(),
    targetUserId: z.uuid().optional(),
  })
  .strict()
  .refine((b) => b.chatMessageId !== undefined || b.targetUserId !== undefined, {
    message: 'report a chat message or a player',
  });

// ---- responses ----

const auditEntrySchema = z.object({
  id: z.string(),
  actor: z.object({ id: z.string(), username: z.string() }),
  action: z.enum(AUDIT_ACTIONS),
  worldId: z.string().nullable(),
  targetUserId: z.string().nullable(),
  /** The names a person reads in place of the ids (null when the world or account is gone). */
  worldName: z.string().nullable().optional(),
  targetUsername: z.string().nullable().optional(),
  reason: z.string(),
  params: z.record(z.string(), z.unknown()),
  at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const actionResponseSchema = z.object({ ok: z.literal(true), action: auditEntrySchema });
export type ActionResponse = z.infer<typeof actionResponseSchema>;
const auditListSchema = z.object({ entries: z.array(auditEntrySchema) });

const moderatedUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(['player', 'moderator', 'admin']),
  bannedUntil: z.string().nullable(),
  banReason: z.string().nullable(),
  mutedUntil: z.string().nullable(),
  createdAt: z.string(),
});
export type ModeratedUser = z.infer<typeof moderatedUserSchema>;
const userListSchema = z.object({ users: z.array(moderatedUserSchema) });

const reportSchema = z.object({
  id: z.string(),
  reporter: z.object({ id: z.string(), username: z.string() }),
  worldId: z.string().nullable(),
  chatMessage: z
    .object({ id: z.string(), body: z.string(), fromUserId: z.string(), deleted: z.boolean() })
    .nullable(),
  targetUserId: z.string().nullable(),
  /** The reported account's name, for the moderators reading the queue. */
  targetUsername: z.string().nullable().optional(),
  reason: z.string(),
  status: z.enum(REPORT_STATUSES),
  at: z.string(),
});
export type Report = z.infer<typeof reportSchema>;
const reportListSchema = z.object({ reports: z.array(reportSchema) });
/**
 * What the reporter gets back: their own report, naming the message by id only. Its text is read
 * by moderators in the moderation area, so a report never shows anyone a message they could not see.
 */
const reportReceiptSchema = reportSchema
  .omit({ chatMessage: true })
  .extend({ chatMessageId: z.string().nullable() });
export type ReportReceipt = z.infer<typeof reportReceiptSchema>;
const reportCreatedSchema = z.object({ report: reportReceiptSchema });

/** `?q=`: the start of a username (letters, digits, _ and -, taken literally). */
export const userSearchQuerySchema = z.object({ q: lineText().max(24).optional() }).strict();
/** `?status=`: which reports to list (open when absent). */
export const reportListQuerySchema = z.object({ status: z.enum(REPORT_STATUSES).optional() }).strict();
/** `?before=` (an entry's id, for the next page), `?worldId=`, `?userId=`: which audit entries. */
export const auditQuerySchema = z
  .object({
    before: z
      .string()
      .regex(/^\d{1,18}$/)
      .optional(),
    worldId: z.uuid().optional(),
    userId: z.uuid().optional(),
  })
  .strict();

/**
 * The turns a world can be rolled back to: the order after which each began (0: the created game).
 * No state hash per turn: it would take the state at every turn start, a replay of the whole log;
 * the rollback's audit entry gives the hash of the state it restored (`params.hash`).
 */
const turnListSchema = z.object({
  turns: z.array(
    z.object({
      turn: z.number().int(),
      seq: z.number().int(),
      /** The seats a rollback to this turn would free: their players joined after it began. */
      unseats: z.array(z.string()),
    }),
  ),
});

const moderationChatSchema = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      from: z.object({ userId: z.string(), username: z.string(), playerId: z.string().nullable() }),
      to: z.string().nullable(),
      body: z.string(),
      at: z.string(),
      deleted: z.boolean(),
    }),
  ),
});

const moderationSeatsSchema = z.object({
  seats: z.array(
    z.object({
      playerId: z.string(),
      userId: z.string().nullable(),
      username: z.string(),
      /** A bot's seat: its level. */
      bot: z.string().nullable(),
      /** The bot level playing the seat while it is absent. */
      standIn: z.string().nullable(),
      colour: z.string(),
      absent: z.boolean(),
      missedTurns: z.number().int(),
      left: z.boolean(),
    }),
  ),
});

/**
 * Sent to everyone in a world's room when a moderator acts on it, and to every socket of one
 * account when the action is about that account (removed, muted, banned): people are told why.
 */
const moderationNoticeSchema = z.object({
  /** The world acted on; null for an account-wide action (a ban or a mute). */
  worldId: z.string().nullable(),
  worldName: z.string().nullable().optional(),
  action: z.enum(MODERATION_ACTIONS),
  reason: z.string(),
  at: z.string(),
  /** Sent to the account acted on only. */
  personal: z.boolean().optional(),
  /** Until when a mute or ban lasts; null: until a moderator lifts it. */
  until: z.string().nullable().optional(),
  /** The game turn a rollback returned the world to. */
  turn: z.number().int().optional(),
  /** The rollback took this account's seat: it joined the world after that turn began. */
  unseated: z.boolean().optional(),
});
export type ModerationNotice = z.infer<typeof moderationNoticeSchema>;
export const MODERATION_NOTICE_EVENT = 'moderation/notice';

/** Sent to a world's room when a moderator deletes one of its chat messages. */
export const chatDeletedSchema = z.object({ worldId: z.string(), id: z.string() });
export type ChatDeleted = z.infer<typeof chatDeletedSchema>;
export const CHAT_DELETED_EVENT = 'chat/deleted';

export interface ModerationRouteSpec {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  level: ModerationLevel;
  /** The audit action a POST records (report creation records none: it is a player's act). */
  action?: ModerationActionName;
  body?: z.ZodType;
  /** The query string's schema, for the GET routes that take one. */
  query?: z.ZodType;
  response: z.ZodType;
}

const W = '/api/moderation/worlds/:id';
const S = `${W}/seats/:playerId`;
const U = '/api/moderation/users/:id';

/** Every moderation route; the server registers from this table and the role test walks it. */
export const MODERATION_ROUTES = {
  pauseWorld: {
    method: 'POST',
    path: `${W}/pause`,
    summary: 'Pause a world: the deadline freezes (its remaining time is kept) and no order is taken.',
    level: 'moderator',
    action: 'world.pause',
    body: reasonBodySchema,
    response: actionResponseSchema,
  },
  resumeWorld: {
    method: 'POST',
    path: `${W}/resume`,
    summary: 'Resume a paused world; the deadline gets back the time it had left.',
    level: 'moderator',
    action: 'world.resume',
    body: reasonBodySchema,
    response: actionResponseSchema,
  },
  changeDeadline: {
    method: 'POST',
    path: `${W}/deadline`,
    summary: 'Extend or shorten the current deadline (by seconds, or to a time).',
    level: 'moderator',
    action: 'world.deadline',
    body: deadlineChangeSchema,
    response: actionResponseSchema,
  },
  resolveNow: {
    method: 'POST',
    path: `${W}/resolve`,
    summary: 'Resolve the current step now: players still waited for get their default orders.',
    level: 'moderator',
    action: 'world.resolve',
    body: reasonBodySchema,
    response: actionResponseSchema,
  },
  changeSettings: {
    method: 'POST',
    path: `${W}/settings`,
    summary: 'Change the deadline settings (mode and length, early resolution) from the next step on.',
    level: 'moderator',
    action: 'world.settings',
    body: worldSettingsChangeSchema,
    response: actionResponseSchema,
  },
  worldFromPosition: {
    method: 'POST',
    path: '/api/moderation/worlds/from-position',
    summary:
      'Start a new world from a shared position (an analysis board link), each of its players seated by name or as a bot (admins only).',
    level: 'admin',
    action: 'world.fromPosition',
    body: worldFromPositionSchema,
    response: actionResponseSchema,
  },
  closeWorld: {
    method: 'POST',
    path: `${W}/close`,
    summary: 'Close a world for good: no more orders, joins or deadlines.',
    level: 'moderator',
    action: 'world.close',
    body: reasonBodySchema,
    response: actionResponseSchema,
  },
  rollbackWorld: {
    method: 'POST',
    path: `${W}/rollback`,
    summary: 'Return the world to the start of an earlier game turn; undone orders stay in the log.',
    level: 'moderator',
    action: 'world.rollback',
    body: rollbackSchema,
    response: actionResponseSchema,
  },
  listTurns: {
    method: 'GET',
    path: `${W}/turns`,
    summary: 'The game turns this world can be rolled back to, with the order after which each began.',
    level: 'moderator',
    response: turnListSchema,
  },
  listSeats: {
    method: 'GET',
    path: `${W}/seats`,
    summary: "A world's seats with their accounts, absence and missed turns.",
    level: 'moderator',
    response: moderationSeatsSchema,
  },
  worldChat: {
    method: 'GET',
    path: `${W}/chat`,
    summary: "A world's latest 200 chat messages, private and deleted ones included.",
    level: 'moderator',
    response: moderationChatSchema,
  },
  removePlayer: {
    method: 'POST',
    path: `${S}/remove`,
    summary: 'Remove a player: the engine abandons the position by the rules, then the seat is freed.',
    level: 'moderator',
    action: 'seat.remove',
    body: reasonBodySchema,
    response: actionResponseSchema,
  },
  handOverSeat: {
    method: 'POST',
    path: `${S}/hand-over`,
    summary: 'Hand a seat (its position and colour) to another account.',
    level: 'moderator',
    action: 'seat.handOver',
    body: handOverSchema,
    response: actionResponseSchema,
  },
  allowRejoin: {
    method: 'POST',
    path: `${S}/allow-rejoin`,
    summary: 'Let the account a moderator removed from this seat join the world again.',
    level: 'moderator',
    action: 'seat.allowRejoin',
    body: reasonBodySchema,
    response: actionResponseSchema,
  },
  markAbsent: {
    method: 'POST',
    path: `${S}/absent`,
    summary:
      'Mark a seat absent (default orders hold it at once, or a bot of the `standIn` level plays it) or present again.',
    level: 'moderator',
    action: 'seat.absent',
    body: absentSchema,
    response: actionResponseSchema,
  },
  listUsers: {
    method: 'GET',
    path: '/api/moderation/users',
    summary: 'Accounts whose name starts with `?q=` (at most 50), with bans and mutes.',
    level: 'moderator',
    query: userSearchQuerySchema,
    response: userListSchema,
  },
  banUser: {
    method: 'POST',
    path: `${U}/ban`,
    summary: 'Ban an account (optionally until a time): it cannot log in or act; its sessions end.',
    level: 'moderator',
    action: 'user.ban',
    body: banSchema,
    response: actionResponseSchema,
  },
  unbanUser: {
    method: 'POST',
    path: `${U}/unban`,
    summary: 'Lift a ban.',
    level: 'moderator',
    action: 'user.unban',
    body: reasonBodySchema,
    response: actionResponseSchema,
  },
  muteUser: {
    method: 'POST',
    path: `${U}/mute`,
    summary: 'Mute an account in every chat (optionally until a time).',
    level: 'moderator',
    action: 'user.mute',
    body: muteSchema,
    response: actionResponseSchema,
  },
  unmuteUser: {
    method: 'POST',
    path: `${U}/unmute`,
    summary: 'Lift a mute.',
    level: 'moderator',
    action: 'user.unmute',
    body: reasonBodySchema,
    response: actionResponseSchema,
  },
  setRole: {
    method: 'POST',
    path: `${U}/role`,
    summary: 'Make an account a player, moderator or admin (admins only).',
    level: 'admin',
    action: 'user.role',
    body: roleChangeSchema,
    response: actionResponseSchema,
  },
  deleteChat: {
    method: 'POST',
    path: '/api/moderation/chat/:id/delete',
    summary: 'Delete a chat message: it leaves every history (the audit log keeps its text).',
    level: 'moderator',
    action: 'chat.delete',
    body: reasonBodySchema,
    response: actionResponseSchema,
  },
  listReports: {
    method: 'GET',
    path: '/api/moderation/reports',
    summary: 'The report queue (`?status=open|resolved|dismissed`, open by default), oldest first.',
    level: 'moderator',
    query: reportListQuerySchema,
    response: reportListSchema,
  },
  resolveReport: {
    method: 'POST',
    path: '/api/moderation/reports/:id/resolve',
    summary: 'Close a report as resolved or dismissed.',
    level: 'moderator',
    action: 'report.resolve',
    body: reportResolveSchema,
    response: actionResponseSchema,
  },
  auditLog: {
    method: 'GET',
    path: '/api/moderation/audit',
    summary: 'The audit log, newest first (`?before=<id>`, `?worldId=`, `?userId=`); admins only.',
    level: 'admin',
    query: auditQuerySchema,
    response: auditListSchema,
  },
  createReport: {
    method: 'POST',
    path: '/api/reports',
    summary: 'A player reports a chat message or another player to the moderators.',
    level: 'user',
    body: reportCreateSchema,
    response: reportCreatedSchema,
  },
} as const satisfies Record<string, ModerationRouteSpec>;
export type ModerationRouteKey = keyof typeof MODERATION_ROUTES;

// ---- documentation examples (for docs/protocol.md; each must parse with its route's schemas) ----

const EX_W = '6f1c2a4e-0000-4000-8000-000000000001';
const EX_U = '0b7d9e1a-0000-4000-8000-000000000002';
const EX_M = '0b7d9e1a-0000-4000-8000-000000000009';
const entry = (action: ModerationActionName, params: Record<string, unknown>, world = true): AuditEntry => ({
  id: '31',
  actor: { id: EX_M, username: 'marcus' },
  action,
  worldId: world ? EX_W : null,
  targetUserId: world ? null : EX_U,
  reason: 'Server maintenance',
  params,
  at: '2026-11-21T13:00:00.000Z',
});
const done = (action: ModerationActionName, params: Record<string, unknown> = {}, world = true) => ({
  ok: true,
  action: entry(action, params, world),
});
const reason = { reason: 'Server maintenance' };
const exReport: Report = {
  id: '5',
  reporter: { id: EX_U, username: 'alaric' },
  worldId: EX_W,
  chatMessage: { id: '17', body: 'Rome will fall.', fromUserId: EX_M, deleted: false },
  targetUserId: EX_M,
  reason: 'Insulting',
  status: 'open',
  at: '2026-11-21T12:06:00.000Z',
};
const { chatMessage: _m, ...exReportRest } = exReport;

/** Request and response examples per moderation route (checked against the schemas when rendered). */
export const MODERATION_EXAMPLES: Record<ModerationRouteKey, { body?: unknown; response: unknown }> = {
  pauseWorld: { body: reason, response: done('world.pause', { remainingMs: 412000 }) },
  resumeWorld: { body: reason, response: done('world.resume', { deadlineAt: '2026-11-21T13:10:00.000Z' }) },
  changeDeadline: { body: { reason: 'Holiday', shiftSeconds: 86400 }, response: done('world.deadline', {}) },
  resolveNow: { body: reason, response: done('world.resolve', { defaulted: ['p2'] }) },
  changeSettings: {
    body: {
      reason: 'Slower pace',
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
      earlyResolution: false,
    },
    response: done('world.settings', {}),
  },
  worldFromPosition: {
    body: {
      reason: 'A teaching puzzle: the last horde at 3-2',
      name: 'Puzzle: the last horde',
      position: 'https://bke.example/#/analysis/q1ZKys8vKVayUkpJLclQqM1MzyvJTCxKTQEA',
      seats: [
        { playerId: 'p1', username: 'alaric' },
        { playerId: 'p2', bot: 'easy' },
      ],
    },
    response: done('world.fromPosition', { turn: 2, seats: 2 }),
  },
  closeWorld: { body: reason, response: done('world.close', { statusWas: 'running' }) },
  rollbackWorld: {
    body: { reason: 'A bug ate a stack', turn: 2 },
    response: done('world.rollback', {
      turn: 2,
      toSeq: 40,
      atSeq: 57,
      hash: '51aa…',
      undone: [{ seq: 41, actor: 'p1', kind: 'player', type: 'move' }],
    }),
  },
  listTurns: {
    response: {
      turns: [
        { turn: 1, seq: 2, unseats: ['p3'] },
        { turn: 2, seq: 40, unseats: [] },
      ],
    },
  },
  listSeats: {
    response: {
      seats: [
        {
          playerId: 'p1',
          userId: EX_U,
          username: 'alaric',
          bot: null,
          standIn: null,
          colour: 'red',
          absent: false,
          missedTurns: 0,
          left: false,
        },
      ],
    },
  },
  worldChat: {
    response: {
      messages: [
        {
          id: '17',
          from: { userId: EX_U, username: 'alaric', playerId: 'p1' },
          to: null,
          body: 'Rome will fall.',
          at: '2026-11-21T12:05:00.000Z',
          deleted: false,
        },
      ],
    },
  },
  removePlayer: { body: reason, response: done('seat.remove', { playerId: 'p2', abandoned: true }) },
  handOverSeat: {
    body: { reason: 'Substitute', username: 'theodora' },
    response: done('seat.handOver', { playerId: 'p2', fromUsername: 'alaric', toUsername: 'theodora' }),
  },
  allowRejoin: {
    body: { reason: 'Apologised' },
    response: done('seat.allowRejoin', { playerId: 'p2', username: 'alaric' }),
  },
  markAbsent: {
    body: { reason: 'On holiday', absent: true },
    response: done('seat.absent', { playerId: 'p2' }),
  },
  listUsers: {
    response: {
      users: [
        {
          id: EX_U,
          username: 'alaric',
          role: 'player',
          bannedUntil: null,
          banReason: null,
          mutedUntil: null,
          createdAt: '2026-11-20T09:00:00.000Z',
        },
      ],
    },
  },
  banUser: {
    body: { reason: 'Cheating', until: '2026-12-21T00:00:00.000Z' },
    response: done('user.ban', { username: 'alaric', sessionsEnded: 2 }, false),
  },
  unbanUser: { body: reason, response: done('user.unban', { username: 'alaric' }, false) },
  muteUser: {
    body: { reason: 'Insults', until: null },
    response: done('user.mute', { username: 'alaric' }, false),
  },
  unmuteUser: { body: reason, response: done('user.unmute', { username: 'alaric' }, false) },
  setRole: {
    body: { reason: 'Trusted', role: 'moderator' },
    response: done('user.role', { from: 'player', to: 'moderator' }, false),
  },
  deleteChat: {
    body: { reason: 'Insults' },
    response: done('chat.delete', { chatMessageId: '17', body: '…' }),
  },
  listReports: { response: { reports: [exReport] } },
  resolveReport: {
    body: { reason: 'Message deleted', status: 'resolved' },
    response: done('report.resolve', { reportId: '5', status: 'resolved' }),
  },
  auditLog: { response: { entries: [entry('world.pause', { remainingMs: 412000 })] } },
  createReport: {
    body: { reason: 'Insulting', chatMessageId: '17' },
    response: { report: { ...exReportRest, chatMessageId: '17' } },
  },
};
