/**
 * Every HTTP route with its body and response schemas: the server registers from this table and
 * docs/protocol.md is generated from it (a test fails when they drift).
 */
import { z } from 'zod';
import { notificationSettingsSchema, webhookTestResultSchema } from './account.ts';
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
import { healthSchema, livenessSchema } from './health.ts';
import {
  addBotResponseSchema,
  addBotSchema,
  awaySchema,
  botOrdersResponseSchema,
  createWorldSchema,
  finishedWorldListResponseSchema,
  joinResponseSchema,
  joinWorldSchema,
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
import { turnReplaySchema } from './replay.ts';
import { combatTableSchema } from './rules.ts';

export interface RouteSpec {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  /** Whether a signed-in session is required. */
  auth: boolean;
  body?: z.ZodType;
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
    summary: "A player's public record: the worlds they play in and every cycle, best victory points first.",
    auth: false,
    response: profileResponseSchema,
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
    response: worldResponseSchema,
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
} as const satisfies Record<string, RouteSpec>;
