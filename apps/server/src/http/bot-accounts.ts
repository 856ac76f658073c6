/**
 * A person's bot accounts and their tokens (auth/bot-accounts.ts), from the account page. Only a
 * person signed in with a session may manage them: a bot's token cannot make more bots or tokens.
 * A revoked token's sockets end on every process, as a logged-out session's do.
 */
import { type BotListResponse, HTTP_ROUTES, type IssuedTokenResponse } from '@bke/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  type BotFailure,
  createBot,
  createBotToken,
  listBots,
  revokeBotToken,
} from '../auth/bot-accounts.ts';
import type { EndedSession } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from './errors.ts';
import { parseBody, requireUser } from './guard.ts';

const botParams = z.object({ botId: z.uuid() });
const tokenParams = botParams.extend({ tokenId: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

const refusal = (f: BotFailure): HttpError =>
  f.error === 'bot/too_many'
    ? new HttpError(409, 'bot/too_many', 'No more bots or tokens may be made.', { limit: f.limit })
    : f.error === 'auth/username_taken'
      ? new HttpError(409, 'auth/username_taken', 'That name is taken.')
      : new HttpError(404, 'bot/not_found', 'No such bot of yours.');

export function registerBotAccounts(
  app: FastifyInstance,
  db: Database,
  endSessions: (ended: EndedSession[]) => void,
): void {
  /** The signed-in person; a bot account is refused. */
  const owner = async (request: FastifyRequest) => {
    const user = await requireUser(db, request);
    if (user.isBot) throw new HttpError(403, 'bot/not_allowed', 'A bot account cannot manage bots.');
    return user;
  };
  const ids = <T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> => {
    const p = schema.safeParse(raw);
    if (!p.success) throw new HttpError(404, 'bot/not_found', 'No such bot of yours.');
    return p.data;
  };

  app.get(HTTP_ROUTES.listBots.path, async (request): Promise<BotListResponse> => {
    const user = await owner(request);
    return { bots: await listBots(db, user.id) };
  });

  app.post(HTTP_ROUTES.createBot.path, async (request): Promise<IssuedTokenResponse> => {
    const user = await owner(request);
    const body = parseBody(HTTP_ROUTES.createBot.body, request.body);
    const r = await createBot(db, user.id, body.username, body.label);
    if ('error' in r) throw refusal(r);
    return r;
  });

  app.post(HTTP_ROUTES.createBotToken.path, async (request): Promise<IssuedTokenResponse> => {
    const user = await owner(request);
    const { botId } = ids(botParams, request.params);
    const body = parseBody(HTTP_ROUTES.createBotToken.body, request.body);
    const r = await createBotToken(db, user.id, botId, body.label);
    if ('error' in r) throw refusal(r);
    return r;
  });

  app.post(HTTP_ROUTES.revokeBotToken.path, async (request): Promise<BotListResponse> => {
    const user = await owner(request);
    const { botId, tokenId } = ids(tokenParams, request.params);
    parseBody(HTTP_ROUTES.revokeBotToken.body, request.body ?? {});
    const r = await revokeBotToken(db, user.id, botId, tokenId);
    if ('error' in r) throw refusal(r);
    endSessions([r]);
    return { bots: await listBots(db, user.id) };
  });
}
