/**
 * Every HTTP route with its body and response schemas: the server registers from this table and
 * docs/protocol.md is generated from it (a test fails when they drift).
 */
import { z } from 'zod';
import {
  acceptInviteResponseSchema,
  accessChangeSchema,
  accessResponseSchema,
  inviteByNameSchema,
  inviteLinkResponseSchema,
} from './access.ts';
import { notificationSettingsSchema, profilePrivacySchema, webhookTestResultSchema } from './account.ts';
import {
  authResponseSchema,
  credentialsSchema,
  forgotPasswordResponseSchema,
  forgotPasswordSchema,
  meResponseSchema,
  okResponseSchema,
  passwordChangeSchema,
  resetPasswordResponseSchema,
  resetPasswordSchema,
  signupSchema,
} from './auth.ts';
import { blockChangeSchema, blockListSchema, MAX_BLOCKS } from './blocks.ts';
import {
  botListResponseSchema,
  createBotSchema,
  createBotTokenSchema,
  issuedTokenResponseSchema,
  seatedWorldsResponseSchema,
  seatOrderResponseSchema,
  seatOrderSchema,
  seatViewResponseSchema,
} from './bots.ts';
import { healthSchema, livenessSchema } from './health.ts';
import {
  addBotResponseSchema,
  addBotSchema,
  awaySchema,
  botOrdersResponseSchema,
  createWorldResponseSchema,
  createWorldSchema,
  finishedWorldListResponseSchema,
  joinResponseSchema,
  joinWorldSchema,
  playAgainSchema,
  profileResponseSchema,
  worldDetailResponseSchema,
  worldListResponseSchema,
  worldResponseSchema,
} from './lobby.ts';
import {
  mailPrefsSchema,
  mailSettingsSchema,
  setEmailSchema,
  verifyEmailResponseSchema,
  verifyEmailSchema,
} from './mail.ts';
import { accountExportSchema, NOTE_MAX_CHARS, noteResponseSchema, noteSchema } from './notes.ts';
import { finalTableResponseSchema, leaderboardQuerySchema, leaderboardResponseSchema } from './ratings.ts';
import { gameRecordSchema } from './record.ts';
import { turnReplaySchema } from './replay.ts';
import { combatTableSchema } from './rules.ts';
import {
  historyPageQuerySchema,
  historyPageSchema,
  sinceLastSchema,
  sinceLastSeenResponseSchema,
  sinceLastSeenSchema,
} from './since-last.ts';

export interface RouteSpec {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  /** Whether a signed-in session is required. */
  auth: boolean;
  body?: z.ZodType;
  /** The query string's schema, for the GET routes that take one. */
  query?: z.ZodType;
  response: z.ZodType;
}

const empty = z.object({}).strict();

export const HTTP_ROUTES = {
  health: {
    method: 'GET',
    path: '/api/health',
    summary: 'The same as /api/health/ready (kept for existing checks).',
    auth: false,
    response: healthSchema,
  },
  healthLive: {
    method: 'GET',
    path: '/api/health/live',
    summary: 'Liveness: the process answers. Touches nothing else; restart the process when it fails.',
    auth: false,
    response: livenessSchema,
  },
  healthReady: {
    method: 'GET',
    path: '/api/health/ready',
    summary:
      'Readiness: the database answers and the process is not shutting down (503 otherwise). Send traffic only while it passes.',
    auth: false,
    response: healthSchema,
  },
  metrics: {
    method: 'GET',
    path: '/api/admin/metrics',
    summary:
      'Prometheus metrics in the text exposition format (orders, order→ack latency, queue depth per world, worlds held in memory and those unloaded when idle, sockets, deadlines fired, database pool, processes of the cluster, and Node’s own). Admins only; operators may serve them on METRICS_PORT instead.',
    auth: true,
    response: z.string(),
  },
  signup: {
    method: 'POST',
    path: '/api/auth/signup',
    summary:
      'Create an account and sign in (sets the session cookie). With an e-mail address, a link to verify it is sent there.',
    auth: false,
    body: signupSchema,
    response: authResponseSchema,
  },
  login: {
    method: 'POST',
    path: '/api/auth/login',
    summary: 'Sign in (sets the session cookie).',
    auth: false,
    body: credentialsSchema,
    response: authResponseSchema,
  },
  logout: {
    method: 'POST',
    path: '/api/auth/logout',
    summary: 'Sign out: the session is deleted and the cookie cleared.',
    auth: false,
    body: empty,
    response: okResponseSchema,
  },
  forgotPassword: {
    method: 'POST',
    path: '/api/auth/forgot',
    summary:
      "Ask for a password reset link by account name or e-mail address. It goes to the account's verified address; the answer is the same whether or not such an account or address exists. Limited per client address and per account.",
    auth: false,
    body: forgotPasswordSchema,
    response: forgotPasswordResponseSchema,
  },
  resetPassword: {
    method: 'POST',
    path: '/api/auth/reset',
    summary:
      "Set a new password with the token from a reset link (single use, valid one hour). Every session of the account ends; a notice goes to the account's address.",
    auth: false,
    body: resetPasswordSchema,
    response: resetPasswordResponseSchema,
  },
  me: {
    method: 'GET',
    path: '/api/auth/me',
    summary: 'The signed-in account, or null.',
    auth: false,
    response: meResponseSchema,
  },
  combatTable: {
    method: 'GET',
    path: '/api/rules/combat-table',
    summary: 'The combat results table the engine rolls on, with the chance of each result per column (7.1).',
    auth: false,
    response: combatTableSchema,
  },
  profile: {
    method: 'GET',
    path: '/api/players/:username',
    summary:
      "A player's public record: the worlds they play in and every cycle, best victory points first, their ratings and the final tables they finished in. A hidden profile answers `profile/hidden` to anyone but its owner.",
    auth: false,
    response: profileResponseSchema,
  },
  leaderboard: {
    method: 'GET',
    path: '/api/leaderboard',
    summary:
      'The rated players, best first, in one pool (`?pool=all|basic|advanced`), with how many provisional ratings were left off (docs/ratings.md). Banned accounts and hidden profiles are not listed.',
    auth: false,
    query: leaderboardQuerySchema,
    response: leaderboardResponseSchema,
  },
  finalTable: {
    method: 'GET',
    path: '/api/worlds/:worldId/final-table',
    summary:
      "A world's final table once it has ended: each seat's rank and score under the victory conditions, and each person's rating before and after.",
    auth: false,
    response: finalTableResponseSchema,
  },
  listWorlds: {
    method: 'GET',
    path: '/api/worlds',
    summary: 'All worlds that are not closed, newest first.',
    auth: false,
    response: worldListResponseSchema,
  },
  listFinishedWorlds: {
    method: 'GET',
    path: '/api/worlds/finished',
    summary:
      'The closed worlds, most recently closed first (at most 50), each with its final standings as the engine computed them.',
    auth: false,
    response: finishedWorldListResponseSchema,
  },
  createWorld: {
    method: 'POST',
    path: '/api/worlds',
    summary: 'Create a world with its options, victory conditions and deadline settings.',
    auth: true,
    body: createWorldSchema,
    response: createWorldResponseSchema,
  },
  playAgain: {
    method: 'POST',
    path: '/api/worlds/:id/play-again',
    summary:
      "A new world with an ended world's settings (deadline, victory, ending, who may join, seats, the same bots), the caller seated and the world's other players invited by name. Only for a player of the ended world; counted against the daily world-creation limits.",
    auth: true,
    body: playAgainSchema,
    response: createWorldResponseSchema,
  },
  getWorld: {
    method: 'GET',
    path: '/api/worlds/:id',
    summary: 'One world with its options, cycles (the chronicle) and VP ledger.',
    auth: false,
    response: worldDetailResponseSchema,
  },
  replayTurn: {
    method: 'GET',
    path: '/api/worlds/:id/replay/:turn',
    summary:
      "A past game turn as the caller saw it, order by order (rebuilt from the log: each view is the engine's view for the seat the caller held when the order was made, else the spectators')",
    auth: false,
    response: turnReplaySchema,
  },
  worldRecord: {
    method: 'GET',
    path: '/api/worlds/:id/record',
    summary:
      "The world's game record (docs/game-records.md; its format below): the complete record of a finished world, for anyone; of a world in play, the caller's record — its own orders and the server's seat changes in full, of the others only the events it was sent, no seed, no hash (a spectator's without a session). Rate-limited as the replay of a past turn.",
    auth: false,
    response: gameRecordSchema,
  },
  sinceLast: {
    method: 'GET',
    path: '/api/worlds/:id/since-last',
    summary:
      "What happened in the world since the caller's seat last saw it (its battles and losses, stage changes, VP won and lost, who joined and left, chat to it), built from the events that seat may see; each line names its turn and seq for the replay. Reading it does not mark it seen.",
    auth: true,
    response: sinceLastSchema,
  },
  worldHistory: {
    method: 'GET',
    path: '/api/worlds/:id/history',
    summary:
      "The History further back: up to 300 events before order `before` that the caller may see (its seat's, else a spectator's), on the play as it now stands — a rollback's undone orders and an order taken back are not in it. Rate-limited as the replay of a past turn.",
    auth: false,
    query: historyPageQuerySchema,
    response: historyPageSchema,
  },
  sinceLastSeen: {
    method: 'POST',
    path: '/api/worlds/:id/since-last/seen',
    summary:
      'The caller has seen the summary up to `version` (its toVersion): the next summary starts there. Never moves back; a version beyond the world is taken as the world as it stands.',
    auth: true,
    body: sinceLastSeenSchema,
    response: sinceLastSeenResponseSchema,
  },
  joinWorld: {
    method: 'POST',
    path: '/api/worlds/:id/join',
    summary: 'Take a free colour; the engine enters the player at the next turn boundary.',
    auth: true,
    body: joinWorldSchema,
    response: joinResponseSchema,
  },
  leaveWorld: {
    method: 'POST',
    path: '/api/worlds/:id/leave',
    summary: 'Leave the world (the engine ends the current cycle as "left").',
    auth: true,
    body: empty,
    response: worldResponseSchema,
  },
  setAway: {
    method: 'POST',
    path: '/api/worlds/:id/away',
    summary:
      "Going away (or coming back): while away, the engine's default orders hold the player's seat as soon as the world waits for it, instead of at each deadline.",
    auth: true,
    body: awaySchema,
    response: awaySchema,
  },
  addBot: {
    method: 'POST',
    path: '/api/worlds/:id/bots',
    summary:
      "Seat a bot of a level (the world's creator or a moderator, seats permitting): it joins by the engine's join like a person.",
    auth: true,
    body: addBotSchema,
    response: addBotResponseSchema,
  },
  removeBot: {
    method: 'POST',
    path: '/api/worlds/:id/bots/:playerId/leave',
    summary:
      'A bot leaves the world (the world\'s creator or a moderator): the engine ends its cycle as "left".',
    auth: true,
    body: empty,
    response: okResponseSchema,
  },
  botOrders: {
    method: 'GET',
    path: '/api/worlds/:id/bot-orders',
    summary: "The orders a bot gave for the caller's seat while standing in (newest last, at most 500).",
    auth: true,
    response: botOrdersResponseSchema,
  },
  worldAccess: {
    method: 'GET',
    path: '/api/worlds/:id/access',
    summary:
      "Who may join the world, the seats held for the invited, whether others may watch, who is invited and whether a link works (the world's creator or a moderator).",
    auth: true,
    response: accessResponseSchema,
  },
  changeWorldAccess: {
    method: 'POST',
    path: '/api/worlds/:id/access',
    summary:
      "Changes who may join, the seats held for the invited or whether others may watch (the world's creator or a moderator); what is omitted stays.",
    auth: true,
    body: accessChangeSchema,
    response: accessResponseSchema,
  },
  inviteByName: {
    method: 'POST',
    path: '/api/worlds/:id/invites',
    summary:
      "Invites an account by its name: it sees the world and may take a seat (the world's creator or a moderator).",
    auth: true,
    body: inviteByNameSchema,
    response: accessResponseSchema,
  },
  newInviteLink: {
    method: 'POST',
    path: '/api/worlds/:id/invite-link',
    summary:
      "A new invitation link's token, shown this once (only its hash is kept); the previous link stops working. Not for a private world, whose members are invited by name.",
    auth: true,
    body: empty,
    response: inviteLinkResponseSchema,
  },
  revokeInviteLink: {
    method: 'POST',
    path: '/api/worlds/:id/invite-link/revoke',
    summary: 'The invitation link stops working; those it let in stay invited.',
    auth: true,
    body: empty,
    response: okResponseSchema,
  },
  acceptInvite: {
    method: 'POST',
    path: '/api/invites/:token',
    summary:
      'Opening an invitation link: the caller becomes a member of its world (sees it, may take a seat). `world/invite_invalid` once the link is revoked or replaced.',
    auth: true,
    body: empty,
    response: acceptInviteResponseSchema,
  },
  changePassword: {
    method: 'POST',
    path: '/api/account/password',
    summary:
      "Change the account's password (the current one is asked for): every other session of the account ends, its sockets too.",
    auth: true,
    body: passwordChangeSchema,
    response: okResponseSchema,
  },
  getNotifications: {
    method: 'GET',
    path: '/api/account/notifications',
    summary: 'Where the server tells this player it is their move while they are away.',
    auth: true,
    response: notificationSettingsSchema,
  },
  setNotifications: {
    method: 'POST',
    path: '/api/account/notifications',
    summary:
      'Set (or clear, with null) the webhook told when a world starts waiting for this player. Discord and Slack incoming webhooks work as they are.',
    auth: true,
    body: notificationSettingsSchema,
    response: notificationSettingsSchema,
  },
  testNotifications: {
    method: 'POST',
    path: '/api/account/notifications/test',
    summary: 'Send a test message to the webhook set, and say whether it arrived.',
    auth: true,
    body: empty,
    response: webhookTestResultSchema,
  },
  getProfilePrivacy: {
    method: 'GET',
    path: '/api/account/profile',
    summary: 'Whether this account hides its profile.',
    auth: true,
    response: profilePrivacySchema,
  },
  setProfilePrivacy: {
    method: 'POST',
    path: '/api/account/profile',
    summary:
      'Hide the profile (or show it again): a hidden profile is answered only to its owner (`profile/hidden` to anyone else), and its account is left off every leaderboard.',
    auth: true,
    body: profilePrivacySchema,
    response: profilePrivacySchema,
  },
  accountExport: {
    method: 'GET',
    path: '/api/account/export',
    summary:
      "Everything the server keeps that this account wrote or chose, as one JSON document: the account's settings, the worlds it sat in and its notes on them.",
    auth: true,
    response: accountExportSchema,
  },
  getBlocks: {
    method: 'GET',
    path: '/api/account/blocks',
    summary: 'The accounts whose chat this account has muted for itself, by name.',
    auth: true,
    response: blockListSchema,
  },
  setBlock: {
    method: 'POST',
    path: '/api/account/blocks',
    summary: `Mutes an account's chat for this account alone (\`blocked: true\`), or hears it again: its lines are no longer sent to this account's sockets nor given in any world's chat history; the other account is not told, and moderators' notices are never muted. At most ${MAX_BLOCKS} accounts (\`block/too_many\`); \`block/not_found\` for no such account, \`block/self\` for one's own. Counted with notes against the account's private-writes limit.`,
    auth: true,
    body: blockChangeSchema,
    response: blockListSchema,
  },
  getNote: {
    method: 'GET',
    path: '/api/worlds/:id/note',
    summary:
      "The signed-in account's own notes on a world it may see (empty until written). Nobody else's notes are ever answered, moderators' requests included.",
    auth: true,
    response: noteResponseSchema,
  },
  saveNote: {
    method: 'POST',
    path: '/api/worlds/:id/note',
    summary: `Replaces the signed-in account's notes on a world it may see (an empty text deletes them); at most ${NOTE_MAX_CHARS} characters. Counted against the account's limit on notes saved.`,
    auth: true,
    body: noteSchema,
    response: noteResponseSchema,
  },
  getMail: {
    method: 'GET',
    path: '/api/account/mail',
    summary:
      'The account\'s e-mail address (verified, or waiting for its link) and how it wants to hear "your move" by mail.',
    auth: true,
    response: mailSettingsSchema,
  },
  setMailPrefs: {
    method: 'POST',
    path: '/api/account/mail',
    summary:
      'How to hear "your move" by mail: none, each (every time a world waits for the player while away; a reminder before the deadline) or digest (once a day at `digestHour` of `timeZone`).',
    auth: true,
    body: mailPrefsSchema,
    response: mailSettingsSchema,
  },
  setEmail: {
    method: 'POST',
    path: '/api/account/email',
    summary:
      'Set or change the e-mail address (the password is asked for): a verification link goes to the new address, which is used once verified. Null removes the address.',
    auth: true,
    body: setEmailSchema,
    response: mailSettingsSchema,
  },
  verifyEmail: {
    method: 'POST',
    path: '/api/account/email/verify',
    summary:
      'Verify an address with the token from its link (single use, valid two days). No session needed.',
    auth: false,
    body: verifyEmailSchema,
    response: verifyEmailResponseSchema,
  },
  listBots: {
    method: 'GET',
    path: '/api/account/bots',
    summary:
      "The signed-in person's bot accounts and each one's live tokens (never their secrets) (docs/bot-interface.md).",
    auth: true,
    response: botListResponseSchema,
  },
  createBot: {
    method: 'POST',
    path: '/api/account/bots',
    summary:
      'Make a bot account owned by the signed-in person, and its first token: the secret is in this answer only (only its hash is kept). A bot account has no password and is shown as a bot to everyone.',
    auth: true,
    body: createBotSchema,
    response: issuedTokenResponseSchema,
  },
  createBotToken: {
    method: 'POST',
    path: '/api/account/bots/:botId/tokens',
    summary: 'Issue another token for one of your bot accounts; the secret is in this answer only.',
    auth: true,
    body: createBotTokenSchema,
    response: issuedTokenResponseSchema,
  },
  revokeBotToken: {
    method: 'POST',
    path: '/api/account/bots/:botId/tokens/:tokenId/revoke',
    summary:
      "Revoke one of your bot's tokens: refused from then on by every process, and its open sockets are closed.",
    auth: true,
    body: empty,
    response: botListResponseSchema,
  },
  seatedWorlds: {
    method: 'GET',
    path: '/api/seats',
    summary:
      'The worlds where the signed-in account (a bot through its token, or a person) holds a seat, with whether each waits for that seat.',
    auth: true,
    response: seatedWorldsResponseSchema,
  },
  seatView: {
    method: 'GET',
    path: '/api/worlds/:id/seat',
    summary:
      "The signed-in account's seat in a world now: the engine's view for that seat, its legal orders and the world's status (deadline, who it waits for). `world/not_seated` without a seat there.",
    auth: true,
    response: seatViewResponseSchema,
  },
  seatOrder: {
    method: 'POST',
    path: '/api/worlds/:id/orders',
    summary:
      "An order for the signed-in account's seat, made against `version`: checked and committed exactly as the socket's `world/order` (answered after it is stored; `sync/stale` when the world moved on). Counted against the account's socket event limit.",
    auth: true,
    body: seatOrderSchema,
    response: seatOrderResponseSchema,
  },
} as const satisfies Record<string, RouteSpec>;
