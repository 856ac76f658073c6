/**
 * The log-in benchmark's HTTP clients, in their own process: loops that keep a number of log-ins
 * (or bogus password resets) in flight against the server under test, and probes that time a
 * static file or one log-in at a time meanwhile. A log-in names an account that does not exist:
 * the server hashes against its dummy hash, the same work as for a real account. A log-in the
 * server refuses as busy waits the seconds it was told, as the web page does, then tries again.
 */
import { randomBytes } from 'node:crypto';
import { cpuMs, serve } from '../lib/child.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function post(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-bke-csrf': '1' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

const retryAfter = (body: unknown): number => {
  const s = (body as { error?: { retryAfterSeconds?: unknown } } | null)?.error?.retryAfterSeconds;
  return typeof s === 'number' ? s : 1;
};

interface Counts {
  /** Log-ins answered (bad credentials: they were checked). */
  checked: number;
  /** Log-ins answered auth/busy. */
  busy: number;
  resets: number;
  /** Bogus resets refused for the address's spent budget of made-up links (429, held a second). */
  resetsHeld: number;
  /** Any other answer (a failure of the run). */
  other: number;
}

let running = false;
let loops: Promise<void>[] = [];
let counts: Counts = { checked: 0, busy: 0, resets: 0, resetsHeld: 0, other: 0 };
let next = 0;

async function loginLoop(base: string): Promise<void> {
  while (running) {
    const r = await post(`${base}/api/auth/login`, { username: `nobody-${next++}`, password: 'password123' });
    if (r.status === 401) counts.checked++;
    else if (r.status === 503) {
      counts.busy++;
      await sleep(retryAfter(r.body) * 1000);
    } else counts.other++;
  }
}

/**
 * An attacker's loop: a made-up link, again and again, never waiting the `Retry-After` of a refusal.
 * Answered `account/link_invalid` while the address's budget of made-up links lasts, then
 * `http/rate_limited` (rate-limit/made-up-links.ts).
 */
async function resetLoop(base: string): Promise<void> {
  while (running) {
    const r = await post(`${base}/api/auth/reset`, {
      token: randomBytes(32).toString('base64url'),
      password: 'a brand new password',
    });
    const code = (r.body as { error?: { code?: unknown } } | null)?.error?.code;
    if (r.status === 400 && code === 'account/link_invalid') counts.resets++;
    else if (r.status === 429 && code === 'http/rate_limited') counts.resetsHeld++;
    else counts.other++;
  }
}

/** Times `probe` every `everyMs` (from its scheduled time: a late answer delays the next) for `seconds`. */
async function sample(seconds: number, everyMs: number, probe: () => Promise<boolean>): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + seconds * 1000;
  let at = performance.now();
  while (at < end) {
    const wait = at - performance.now();
    if (wait > 0) await sleep(wait);
    const started = performance.now();
    if (!(await probe())) throw new Error('a probe was not answered as expected');
    out.push(performance.now() - started);
    at = Math.max(at + everyMs, performance.now());
  }
  return out;
}

serve(
  {
    begin: (req: { url: string; logins: number; resets: number }) => {
      running = true;
      counts = { checked: 0, busy: 0, resets: 0, resetsHeld: 0, other: 0 };
      loops = [
        ...Array.from({ length: req.logins }, () => loginLoop(req.url)),
        ...Array.from({ length: req.resets }, () => resetLoop(req.url)),
      ];
      return true;
    },
    end: async () => {
      running = false;
      await Promise.all(loops);
      loops = [];
      return counts;
    },
    /** A static file's time, every 50 ms. */
    staticFile: (req: { url: string; path: string; seconds: number; bytes: number }) =>
      sample(req.seconds, 50, async () => {
        const res = await fetch(`${req.url}/${req.path}`);
        return res.status === 200 && (await res.arrayBuffer()).byteLength === req.bytes;
      }),
    /** One log-in at a time (a wrong password: checked, refused). */
    login: (req: { url: string; seconds: number }) =>
      sample(req.seconds, 0, async () => {
        const r = await post(`${req.url}/api/auth/login`, {
          username: `probe-${next++}`,
          password: 'password123',
        });
        return r.status === 401;
      }),
    cpu: () => cpuMs(),
  },
  async () => {
    running = false;
  },
);
