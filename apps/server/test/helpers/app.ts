/** A server for one test file: the app on a throwaway database, listening on a free local port. */
import { type App, type AppOptions, buildApp } from '../../src/app.ts';
import type { Database } from '../../src/db/database.ts';

/**
 * No web build, no deadline timer (tests fire deadlines themselves), unless `options` says otherwise.
 * `before` adds routes (the moderation area, as main.ts does) before the server listens.
 */
export async function serveApp(
  db: Database,
  options: Partial<AppOptions> = {},
  before: (app: App) => void = () => {},
): Promise<{ app: App; base: string }> {
  const app = await buildApp({ db, webDist: '/nonexistent', deadlinePollMs: 0, ...options });
  before(app);
  const base = await app.http.listen({ port: 0, host: '127.0.0.1' });
  return { app, base };
}

/** Polls `ok` until it holds; fails naming `what` after `ms`. */
export async function waitFor(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
