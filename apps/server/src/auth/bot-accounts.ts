/**
 * Bot accounts: a person makes one from their account page, and issues it tokens. A bot account is
 * an ordinary account (seats, limits, bans and ratings apply to it as to anyone) marked by its
 * owner, with no password: it cannot log in, only play through its tokens. A token is a session of
 * the bot account flagged `bot` — the same row every check of a session reads (the order's
 * statement, a socket's rights, ending its sockets) — that does not end by disuse; the secret is
 * handed out once and only its SHA-256 is stored.
 */
import { randomBytes } from 'node:crypto';
import { BOT_TOKEN_PREFIX, type BotAccount, MAX_BOTS_PER_OWNER, MAX_TOKENS_PER_BOT } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import { sessionIdOf } from './sessions.ts';

/** Stored as a bot account's password hash: no password verifies against it (passwords.ts reads no parts). */
const NO_PASSWORD = '!bot-account';
/** A bot token's expiry: far enough to be never; revoking deletes it. */
const NEVER = new Date('9999-12-31T00:00:00Z');

export type BotFailure = { error: 'bot/not_found' | 'bot/too_many' | 'auth/username_taken'; limit?: number };

/** The owner's bot accounts with their live tokens. */
export async function listBots(db: Database, ownerId: string): Promise<BotAccount[]> {
  const rows = await db.prisma.user.findMany({
    where: { botOwnerId: ownerId },
    orderBy: { createdAt: 'asc' },
    include: { sessions: { where: { bot: true }, orderBy: { createdAt: 'asc' } } },
  });
  return rows.map((u) => ({
    id: u.id,
    username: u.username,
    createdAt: u.createdAt.toISOString(),
    bannedUntil: u.bannedUntil && u.bannedUntil.getTime() > Date.now() ? u.bannedUntil.toISOString() : null,
    tokens: u.sessions.map((s) => ({
      id: s.id,
      label: s.label ?? '',
      createdAt: s.createdAt.toISOString(),
      lastUsedAt: s.lastSeenAt.toISOString(),
    })),
  }));
}

async function issue(db: Database, botId: string, label: string): Promise<string> {
  const token = BOT_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  await db.prisma.session.create({
    data: { id: sessionIdOf(token), userId: botId, expiresAt: NEVER, bot: true, label },
  });
  return token;
}

const bot = async (db: Database, ownerId: string, botId: string) =>
  (await listBots(db, ownerId)).find((b) => b.id === botId) ?? null;

/** Makes a bot account for `ownerId` with its first token. */
export async function createBot(
  db: Database,
  ownerId: string,
  username: string,
  label: string,
): Promise<{ bot: BotAccount; token: string } | BotFailure> {
  const held = await db.prisma.user.count({ where: { botOwnerId: ownerId } });
  if (held >= MAX_BOTS_PER_OWNER) return { error: 'bot/too_many', limit: MAX_BOTS_PER_OWNER };
  const key = username.toLowerCase();
  let id: string;
  try {
    ({ id } = await db.prisma.user.create({
      data: { username, usernameKey: key, passwordHash: NO_PASSWORD, botOwnerId: ownerId },
    }));
  } catch {
    return { error: 'auth/username_taken' }; // the unique name key
  }
  const token = await issue(db, id, label);
  const made = await bot(db, ownerId, id);
  if (!made) return { error: 'bot/not_found' };
  return { bot: made, token };
}

/** Issues another token for one of the owner's bot accounts. */
export async function createBotToken(
  db: Database,
  ownerId: string,
  botId: string,
  label: string,
): Promise<{ bot: BotAccount; token: string } | BotFailure> {
  const before = await bot(db, ownerId, botId);
  if (!before) return { error: 'bot/not_found' };
  if (before.tokens.length >= MAX_TOKENS_PER_BOT) return { error: 'bot/too_many', limit: MAX_TOKENS_PER_BOT };
  const token = await issue(db, botId, label);
  const after = await bot(db, ownerId, botId);
  return after ? { bot: after, token } : { error: 'bot/not_found' };
}

/** Revokes one token of one of the owner's bot accounts; the caller ends its sockets. */
export async function revokeBotToken(
  db: Database,
  ownerId: string,
  botId: string,
  tokenId: string,
): Promise<{ sessionId: string; userId: string } | BotFailure> {
  const gone = await db.prisma.session.deleteMany({
    where: { id: tokenId, bot: true, userId: botId, user: { botOwnerId: ownerId } },
  });
  return gone.count === 1 ? { sessionId: tokenId, userId: botId } : { error: 'bot/not_found' };
}
