/** A player's own settings: the webhook told "your move" (notify/turns.ts). */
import { HTTP_ROUTES } from '@bke/protocol';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { sendWebhook } from '../notify/webhook.ts';
import { guard } from '../rate-limit/http.ts';
import { Limit } from '../rate-limit/limit.ts';
import { HttpError } from './errors.ts';
import { parseBody, requireUser } from './guard.ts';

export function registerAccount(
  app: FastifyInstance,
  db: Database,
  options: { allowPrivate?: boolean } = {},
): void {
  // A test message goes out to an address the player typed: a few per minute at most.
  // A test message is a request to a stranger's server: three a minute per account.
  const tests = Limit.shared(db, { name: 'webhook-test', points: 3, seconds: 60 }, (msg, data) =>
    app.log.warn(data, msg),
  );

  app.get(HTTP_ROUTES.getNotifications.path, async (request) => {
    const user = await requireUser(db, request);
    const row = await db.prisma.user.findUniqueOrThrow({
      where: { id: user.id },
      select: { webhookUrl: true },
    });
    return { webhookUrl: row.webhookUrl };
  });

  app.post(HTTP_ROUTES.setNotifications.path, async (request) => {
    const user = await requireUser(db, request);
    const body = parseBody(HTTP_ROUTES.setNotifications.body, request.body);
    const row = await db.prisma.user.update({
      where: { id: user.id },
      data: { webhookUrl: body.webhookUrl },
      select: { webhookUrl: true },
    });
    return { webhookUrl: row.webhookUrl };
  });

  app.post(HTTP_ROUTES.testNotifications.path, async (request, reply) => {
    const user = await requireUser(db, request);
    parseBody(HTTP_ROUTES.testNotifications.body, request.body ?? {});
    await guard(reply, [tests, `account:${user.id}`]);
    const row = await db.prisma.user.findUniqueOrThrow({
      where: { id: user.id },
      select: { webhookUrl: true },
    });
    if (!row.webhookUrl) throw new HttpError(409, 'notify/no_webhook', 'No webhook is set.');
    const r = await sendWebhook(
      row.webhookUrl,
      {
        text: `BKE Online will post here when a world waits for ${user.username}.`,
        data: { test: true, username: user.username },
      },
      { allowPrivate: options.allowPrivate ?? false },
    );
    return r.delivered
      ? { delivered: true, status: r.status }
      : { delivered: false, reason: r.reason, ...(r.status ? { status: r.status } : {}) };
  });
}
