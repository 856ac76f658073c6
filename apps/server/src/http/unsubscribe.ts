/**
 * The unsubscribe link of every "your move" mail. A mail program's one-click unsubscribe (RFC 8058)
 * POSTs `List-Unsubscribe=One-Click` to it, and so does the page's button; the GET only shows that
 * page, because link scanners open every link in a mail and must not unsubscribe anyone. The token
 * can only turn this account's "your move" mail off. Plain HTML with no script or inline style, so
 * the site's content-security policy holds.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { SiteLinks } from '../mail/mailer.ts';
import { escapeHtml } from '../mail/templates.ts';

const UNSUBSCRIBE_PATH = '/mail/unsubscribe';

const querySchema = z
  .object({
    token: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[\w-]+$/),
  })
  .strict();

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
        `<title>${escapeHtml(title)} · BKE Online</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
}

export function registerUnsubscribe(app: FastifyInstance, db: Database, links: SiteLinks): void {
  const invalid = (reply: FastifyReply) =>
    page(
      reply,
      404,
      'This link is not valid',
      `<p>It may have been cut short. You can change what is mailed to you on <a href="${escapeHtml(links.account)}">your account page</a>.</p>`,
    );

  app.get(UNSUBSCRIBE_PATH, async (request, reply) => {
    const q = querySchema.safeParse(request.query);
    if (!q.success) return invalid(reply);
    const user = await db.prisma.user.findUnique({
      where: { unsubscribeToken: q.data.token },
      select: { username: true, notifyMode: true },
    });
    if (!user) return invalid(reply);
    const action = `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(q.data.token)}`;
    return page(
      reply,
      200,
      'Stop "your move" e-mail',
      `<p>Account: <strong>${escapeHtml(user.username)}</strong>.</p>` +
        (user.notifyMode === 'none'
          ? '<p>No "your move" e-mail goes to this account now.</p>'
          : `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click">` +
            '<button type="submit">Stop these e-mails</button></form>') +
        `<p>Other settings are on <a href="${escapeHtml(links.account)}">your account page</a>.</p>`,
    );
  });

  // The one-click POST is a form body; only this route reads one (the API takes JSON alone).
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_r, _b, done) => done(null, {}),
    );
    // A mail program's one-click POST carries no CSRF header; the token alone is the proof, and it
    // can only turn "your move" mail off.
    scope.post(UNSUBSCRIBE_PATH, { config: { crossSite: 'allowed' } }, async (request, reply) => {
      const q = querySchema.safeParse(request.query);
      if (!q.success) return invalid(reply);
      const rows = await db.sql<{ username: string }>(
        `UPDATE users SET notify_mode = 'none', digest_due_at = NULL WHERE unsubscribe_token = $1 RETURNING username`,
        [q.data.token],
      );
      if (rows.length === 0) return invalid(reply);
      return page(
        reply,
        200,
        'Unsubscribed',
        `<p>No more "your move" e-mail goes to <strong>${escapeHtml(rows[0]?.username ?? '')}</strong>. Mail about the account itself (a password reset you ask for) still does.</p>` +
          `<p>To turn it on again, visit <a href="${escapeHtml(links.account)}">your account page</a>.</p>`,
      );
    });
  });
}
