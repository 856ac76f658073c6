/**
 * No spelling of a URL reaches a state-changing handler without the cross-site checks: every
 * state-changing route in the server's route table (moderation included, as main.ts adds it) is
 * tried with percent-encoded letters, doubled slashes, dot segments, other letter case, a trailing
 * slash and an encoded slash, from a foreign Origin or without the CSRF header, by a signed-in
 * user. Each answer is the guard's refusal or the router's "no such route", never the handler's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { registerModeration } from '../src/http/moderation.ts';
import { serveApp } from './helpers/app.ts';
import { signup } from './helpers/client.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
let cookie: string;

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { limits: { authPerAddress: { burst: 100, perMinute: 600 } } }, (a) =>
    registerModeration(a.http, t.db, a.hub, a.io),
  ));
  cookie = await signup(base, 'victim');
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const stateChanging = () =>
  app.routes.flatMap((r) => r.methods.filter((m) => !SAFE.has(m)).map((method) => ({ method, ...r })));

/** The route's path with its parameters filled in. */
const concrete = (url: string) => url.replace(/:\w+/g, 'x1');

/** Other spellings of `path` that a browser, proxy or attacker might send. */
function spellings(path: string): string[] {
  const segments = path.split('/').slice(1);
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16)}`;
  const out = new Set<string>();
  segments.forEach((seg, i) => {
    const encode = (s: string) => ['', ...segments.slice(0, i), s, ...segments.slice(i + 1)].join('/');
    out.add(encode(hex(seg[0] ?? 'a') + seg.slice(1))); // %61pi
    out.add(encode(hex(seg[0] ?? 'a').toUpperCase() + seg.slice(1))); // %61 as %61, letters in caps
    out.add(encode([...seg].map(hex).join(''))); // every letter encoded
    out.add(encode(seg.toUpperCase()));
    out.add(encode(seg[0]?.toUpperCase() + seg.slice(1)));
    out.add(encode(`./${seg}`));
    out.add(encode(`x/../${seg}`));
    out.add(encode(`/${seg}`));
  });
  out.add(`/${path}`);
  out.add(`${path}/`);
  out.add(`${path}//`);
  out.add(`${path}/.`);
  out.add(`${path}?x=1`);
  out.add(`${path};x`);
  out.add(path.replaceAll('/', '%2F'));
  out.add(`/${segments.join('%2F')}`);
  out.add(`/${segments.join('%2f')}`);
  out.add(`/${segments.join('/%2E/')}`);
  out.delete(path);
  return [...out];
}

/** The router's "no such route", its unreadable URL, and Node's unreadable request line. */
const REFUSED_BEFORE_ANY_ROUTE = new Set(['404 http/not_found', '400 http/bad_url', '400 http/bad_request']);

interface Attempt {
  origin: string | null;
  csrf: boolean;
}
const ATTEMPTS: Attempt[] = [
  { origin: 'http://evil.example', csrf: false },
  { origin: 'http://evil.example', csrf: true },
  { origin: null, csrf: false },
];

async function send(method: string, path: string, a: Attempt) {
  const { host } = new URL(base);
  const headers = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${host}`,
    `Cookie: ${cookie}`,
    'Content-Type: application/json',
    'Content-Length: 2',
    'Connection: close',
    ...(a.origin ? [`Origin: ${a.origin}`] : []),
    ...(a.csrf ? ['x-bke-csrf: 1'] : []),
  ];
  return rawRequest(base, `${headers.join('\r\n')}\r\n\r\n{}`, 5000);
}

describe('the cross-site guard', () => {
  it('is on every state-changing route, the unsubscribe link (its token proves the caller) alone excepted', () => {
    const routes = stateChanging();
    // The site's forms and actions: sign-up to moderation. A shorter list means the table is not read.
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes.filter((r) => r.config.crossSite === 'allowed').map((r) => r.url)).toEqual([
      '/mail/unsubscribe',
    ]);
  });

  it('refuses every spelling of every state-changing route from a foreign origin or without the header', async () => {
    const reached: string[] = [];
    const unmatched: string[] = [];
    let guarded = 0;
    for (const route of stateChanging().filter((r) => r.config.crossSite !== 'allowed')) {
      const path = concrete(route.url);
      const tries = [path, ...spellings(path)].flatMap((spelling) => ATTEMPTS.map((a) => ({ spelling, a })));
      const answers = await Promise.all(tries.map(({ spelling, a }) => send(route.method, spelling, a)));
      answers.forEach((r, i) => {
        const { spelling, a } = tries[i] as (typeof tries)[number];
        const code = (r.body as { error?: { code?: string } } | null)?.error?.code;
        if (r.status === 403 && code === 'http/cross_site') guarded++;
        else if (!REFUSED_BEFORE_ANY_ROUTE.has(`${r.status} ${code}`))
          reached.push(`${route.method} ${spelling} origin=${a.origin} csrf=${a.csrf}: ${r.status} ${code}`);
      });
      // The percent-encoded spelling does reach the route: the router decodes it.
      const encoded = await send(route.method, `/%61${path.slice(2)}`, ATTEMPTS[0] as Attempt);
      if (encoded.status !== 403) unmatched.push(`${route.method} /%61${path.slice(2)}: ${encoded.status}`);
    }
    expect(reached).toEqual([]);
    expect(unmatched).toEqual([]);
    expect(guarded).toBeGreaterThan(0);
  });
});
