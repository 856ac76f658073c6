/**
 * Real clients for the e2e specs: accounts made over HTTP (the same routes the browser uses) and a
 * Socket.IO player that keeps its view from the server's patches and plays the engine's own sim
 * policy, order by order, until the situation a spec needs appears. Then the browser page of the
 * same account takes over. No test-only route in the product: everything goes through the
 * public protocol. Run by `drive.ts` in its own Node process (tsx), since the engine's JSON
 * tables need a loader Playwright's test runner does not provide.
 */

import { request } from 'node:http';
import {
  createEngine,
  type Engine,
  type GameState,
  type GameView,
  type LegalOrder,
  type Order,
  type PlayerId,
  type Policy,
  seedRng,
  simplePolicy,
} from '@bke/engine';
import { loadMap } from '@bke/map';
import {
  CSRF_HEADER,
  followPatch,
  isLaterStatus,
  type PatchMessage,
  SESSION_COOKIE,
  type WorldStatusMessage,
} from '@bke/protocol';
import { io, type Socket } from 'socket.io-client';

let engine: Engine | null = null;
/** The rules engine over the same compiled map the server uses (for the policy only). */
export const botEngine = (): Engine => {
  engine ??= createEngine(loadMap());
  return engine;
};

export interface Account {
  name: string;
  password: string;
  cookie: string;
}

interface Answer {
  status: number;
  text: string;
  setCookies: string[];
  json(): unknown;
}

/**
 * This driver process's own loopback address (127.x.y.z; Linux routes all of 127/8 to the local
 * host). The server limits sign-ups and log-ins per IP address; the drivers' accounts then do not
 * use up the allowance of the browsers, which all come from 127.0.0.1 (the suite would otherwise
 * fail when it runs fast).
 */
const LOCAL_ADDRESS = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;

function post(base: string, path: string, body: unknown, cookie?: string): Promise<Answer> {
  const url = new URL(path, base);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: url.hostname === '127.0.0.1' ? LOCAL_ADDRESS : undefined,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          [CSRF_HEADER]: '1',
          ...(cookie ? { cookie } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) return reject(new Error(`POST ${path}: ${status} ${text}`));
          const setCookies = res.headers['set-cookie'] ?? [];
          resolve({ status, text, setCookies, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function sessionCookie(res: Answer): string {
  for (const c of res.setCookies) {
    const [pair] = c.split(';');
    if (pair?.startsWith(`${SESSION_COOKIE}=`)) return pair;
  }
  throw new Error('no session cookie in the answer');
}

/** Signs up over HTTP; the cookie can be given to a browser context too. */
export async function signUp(
  base: string,
  name: string,
  password = 'correct horse battery',
): Promise<Account> {
  const res = await post(base, '/api/auth/signup', { username: name, password });
  return { name, password, cookie: sessionCookie(res) };
}

export async function logIn(base: string, name: string, password: string): Promise<Account> {
  const res = await post(base, '/api/auth/login', { username: name, password });
  return { name, password, cookie: sessionCookie(res) };
}

/** Creates a world that resolves a phase as soon as everyone is ready (long deadlines). */
export async function createWorld(
  base: string,
  acct: Account,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await post(
    base,
    '/api/worlds',
    { deadline: { mode: 'live', minutesPerPhase: 60 }, ...body },
    acct.cookie,
  );
  const json = res.json() as { world: { id: string } };
  return json.world.id;
}

export async function joinWorld(base: string, acct: Account, worldId: string): Promise<string> {
  const res = await post(base, `/api/worlds/${worldId}/join`, {}, acct.cookie);
  const json = res.json() as { seat: { playerId: string } };
  return json.seat.playerId;
}

type AckResult = { ok: true; [k: string]: unknown } | { ok: false; error: { code: string } };

/** A view turned back into a state the engine's queries accept (no dice are rolled by queries). */
function stateOf(view: GameView): GameState {
  const {
    viewer: _v,
    waitingFor: _w,
    canUndo: _c,
    standings: _s,
    ...rest
  } = view as GameView & {
    waitingFor: unknown;
    canUndo: unknown;
  };
  // The record sheet is not in views (it travels as `ledgerRow` events); the queries that read it
  // only look at rows of the turn being played, which an empty sheet stands in for.
  const realm = rest.realm ? { ...rest.realm, sheet: [] } : rest.realm;
  return { ...(rest as unknown as GameState), realm, rng: seedRng('bot'), riggedDice: [] } as GameState;
}

/** One player's live connection: its view, kept current from the server's patches. */
export class Bot {
  view!: GameView;
  version = -1;
  status: WorldStatusMessage | null = null;
  playerId: PlayerId | null = null;
  orders = 0;
  /** The version of the last whole view received. */
  private fullVersion = -1;
  private waiters: (() => void)[] = [];

  private constructor(
    readonly base: string,
    readonly account: Account,
    readonly worldId: string,
    private readonly socket: Socket,
    private readonly policy: Policy,
  ) {}

  static async connect(base: string, account: Account, worldId: string, policySeed = 'e2e'): Promise<Bot> {
    const socket = io(base, {
      transports: ['websocket'],
      extraHeaders: { cookie: account.cookie },
      reconnection: false,
    });
    const bot = new Bot(base, account, worldId, socket, simplePolicy(policySeed));
    await new Promise<void>((resolve, reject) => {
      socket.once('hello', () => resolve());
      socket.once('connect_error', reject);
    });
    socket.on('world/patch', (m: PatchMessage) => bot.onPatch(m));
    socket.on(
      'world/view',
      (m: { worldId: string; version: number; view: unknown; status?: WorldStatusMessage }) => {
        if (m.worldId !== worldId) return;
        if (m.status && isLaterStatus(bot.status, m.status)) bot.status = m.status;
        if (m.version >= bot.version) bot.setView(m.version, m.view as GameView);
      },
    );
    socket.on('world/status', (m: WorldStatusMessage) => {
      if (m.worldId === worldId) {
        bot.status = m;
        bot.wake();
      }
    });
    await bot.subscribe();
    return bot;
  }

  private emit(event: string, payload: unknown): Promise<AckResult> {
    return this.socket.timeout(30_000).emitWithAck(event, payload) as Promise<AckResult>;
  }

  private async subscribe(): Promise<void> {
    let r = await this.emit('world/subscribe', { worldId: this.worldId });
    for (let i = 0; i < 20 && !r.ok && r.error.code === 'socket/rate_limited'; i++) {
      await new Promise((res) => setTimeout(res, 250));
      r = await this.emit('world/subscribe', { worldId: this.worldId });
    }
    if (!r.ok) throw new Error(`subscribe: ${r.error.code}`);
    const sync = r.sync as { kind: 'view'; version: number; view: GameView };
    this.playerId = r.playerId as PlayerId | null;
    this.status = r.status as WorldStatusMessage;
    this.setView(sync.version, sync.view);
    this.fullVersion = sync.version;
  }

  private setView(version: number, view: GameView) {
    this.view = view;
    this.version = version;
    this.wake();
  }

  private onPatch(m: PatchMessage) {
    if (m.worldId !== this.worldId) return;
    if (m.status && isLaterStatus(this.status, m.status)) {
      this.status = m.status;
      this.wake();
    }
    const step = followPatch(this.view, this.version, m);
    if (step.kind === 'gap' || step.kind === 'drift') {
      // Should not happen on one connection: take a whole view again.
      void this.subscribe();
      return;
    }
    if (step.kind === 'applied') this.setView(step.version, step.view);
  }

  private wake() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Resolves at the next view or status change (or after `ms`). */
  private changed(ms = 2_000): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  async reach(version: number, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.version < version) {
      if (Date.now() > deadline) throw new Error(`view stuck at ${this.version}, wanted ${version}`);
      await this.changed();
    }
  }

  /**
   * Takes a whole view when a realm step has begun since the last one (the player's private part is
   * not in the patches), as `playUntil` does before each order; for drivers that play several bots.
   */
  async syncRealm(): Promise<void> {
    const kind = this.view.step.kind;
    if ((kind === 'economic' || kind === 'administration') && this.fullVersion !== this.version)
      await this.subscribe();
  }

  /** The state rebuilt from the current view, for the engine's queries. */
  state(): GameState {
    return stateOf(this.view);
  }

  me() {
    return this.view.players.find((p) => p.id === this.playerId);
  }

  /** This player's legal orders now, computed from the view exactly as the server does. */
  legal(): LegalOrder[] {
    return this.playerId ? botEngine().legalOrders(this.state(), this.playerId) : [];
  }

  myMove(): boolean {
    return (
      !!this.playerId && (this.view as GameView & { waitingFor: string[] }).waitingFor.includes(this.playerId)
    );
  }

  /** Sends one order against the current version and waits until the view has caught up. */
  async send(order: Order): Promise<void> {
    let r = await this.emit('world/order', { worldId: this.worldId, version: this.version, order });
    // The server allows a burst of orders per socket, then about twenty a second: keep to it.
    for (let i = 0; i < 20 && !r.ok && r.error.code === 'socket/rate_limited'; i++) {
      await new Promise((res) => setTimeout(res, 250));
      r = await this.emit('world/order', { worldId: this.worldId, version: this.version, order });
    }
    if (!r.ok) throw new Error(`order ${JSON.stringify(order)} refused: ${JSON.stringify(r.error)}`);
    this.orders++;
    await this.reach(r.version as number);
    // Patches are diffs of the public view: a player's private part (its recorded plan, its
    // sealed bids) only comes with a whole view, so take one after such an order.
    if (order.type.startsWith('realm')) await this.subscribe();
  }

  /**
   * Plays the sim policy for this player until `done` holds (checked whenever the view changes),
   * or throws after `maxOrders` orders. Other players must be played by their own bots.
   */
  async playUntil(
    done: (bot: Bot) => boolean,
    maxOrders = 600,
    what = 'the wanted situation',
  ): Promise<void> {
    const start = this.orders;
    for (;;) {
      // The player's private realm part (plan, bids) is not in the patches (they are diffs of the
      // public view): take a whole view when a realm step begins, as a reloaded page would.
      const kind = this.view.step.kind;
      if ((kind === 'economic' || kind === 'administration') && this.fullVersion !== this.version)
        await this.subscribe();
      if (done(this)) return;
      if (this.orders - start >= maxOrders)
        throw new Error(`${what} did not appear within ${maxOrders} orders (turn ${this.view.turn})`);
      if (!this.myMove()) {
        await this.changed();
        continue;
      }
      const s = this.state();
      const me = this.playerId as PlayerId;
      const order = this.policy.choose(botEngine(), s, me) ?? botEngine().timeoutOrders(s, me)[0];
      if (!order) throw new Error(`no order for ${me} at turn ${s.turn} (${s.step.kind})`);
      if (process.env.BOT_TRACE) process.stderr.write(`${s.turn} ${s.step.kind} ${JSON.stringify(order)}\n`);
      await this.send(order);
    }
  }

  /** Plays in the background until stopped (for a second player the spec does not watch). */
  playInBackground(): { stop(): Promise<void> } {
    let stopped = false;
    const run = this.playUntil(() => stopped, 100_000).catch((e) => {
      if (!stopped) throw e;
    });
    return {
      async stop() {
        stopped = true;
        await run;
      },
    };
  }

  close() {
    this.socket.close();
  }
}
