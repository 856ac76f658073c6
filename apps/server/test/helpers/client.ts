/** Test clients: HTTP with a session cookie, and a Socket.IO player that keeps its view in sync. */

import type { Order } from '@bke/engine';
import { orderSchema } from '@bke/engine/schemas';
import {
  type Ack,
  followPatch,
  isLaterStatus,
  type PatchMessage,
  type SubscribeResult,
  type WorldStatusMessage,
} from '@bke/protocol';
import { io as connect, type Socket } from 'socket.io-client';

export async function api(
  base: string,
  cookie: string | null,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; headers: Headers; body: Record<string, unknown>; cookie: string | null }> {
  const headers: Record<string, string> = { 'x-bke-csrf': '1' };
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const set = res.headers.get('set-cookie');
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as Record<string, unknown>,
    cookie: set ? (set.split(';')[0] ?? null) : null,
  };
}

/** A POST as if from the client address `from` (for a server that trusts X-Forwarded-For). */
export async function postFrom(base: string, path: string, from: string, body: unknown, cookie?: string) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-bke-csrf': '1',
      'x-forwarded-for': from,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: (text ? JSON.parse(text) : null) as Record<string, unknown>,
    cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '',
  };
}

export async function signup(base: string, username: string): Promise<string> {
  const r = await api(base, null, 'POST', '/api/auth/signup', { username, password: 'password123' });
  if (r.status !== 200 || !r.cookie) throw new Error(`signup failed: ${JSON.stringify(r.body)}`);
  return r.cookie;
}

type LegalOrders = SubscribeResult['legal'];

type View = { version?: number; turn: number; step: { kind: string }; [k: string]: unknown };

/** A connected client that mirrors the server: full view, then patches n → n + 1 in order. */
export class TestClient {
  socket: Socket;
  view: View | null = null;
  version = -1;
  legal: LegalOrders = [];
  status: WorldStatusMessage | null = null;
  /** How many statuses came alone (`world/status`), and how many inside a patch. */
  statusMessages = 0;
  patchStatuses = 0;
  chat: { body: string; to: string | null }[] = [];
  errors: unknown[] = [];
  /** Each `server/database` notice's `up`, in order. */
  database: boolean[] = [];
  gaps = 0;
  playerId: string | null = null;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly base: string,
    readonly cookie: string | null,
    readonly worldId: string,
    /** Other handshake headers: a program's `authorization: Bearer <token>`. */
    headers: Record<string, string> = {},
  ) {
    this.socket = connect(base, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      extraHeaders: { ...headers, ...(cookie ? { cookie } : {}) },
    });
    this.socket.on('world/patch', (p: PatchMessage) => this.onPatch(p));
    this.socket.on(
      'world/view',
      (m: { version: number; view: View; legal?: LegalOrders; status?: WorldStatusMessage }) => {
        this.view = m.view;
        this.version = m.version;
        if (m.legal) this.legal = m.legal;
        if (m.status) this.laterStatus(m.status);
        this.moved();
      },
    );
    this.socket.on('world/status', (s: WorldStatusMessage) => {
      this.statusMessages++;
      this.status = s;
    });
    this.socket.on('chat/message', (m: { body: string; to: string | null }) => this.chat.push(m));
    this.socket.on('error', (e: unknown) => this.errors.push(e));
    this.socket.on('server/database', (m: { up: boolean }) => this.database.push(m.up));
  }

  /** A status carried by a patch or a view, kept unless the one held is of a later version. */
  private laterStatus(s: WorldStatusMessage) {
    if (isLaterStatus(this.status, s)) this.status = s;
  }

  private onPatch(p: PatchMessage) {
    if (p.status) this.patchStatuses++;
    if (p.status && this.view) this.laterStatus(p.status);
    if (!this.view) return;
    const step = followPatch(this.view, this.version, p);
    if (step.kind === 'behind') return;
    if (step.kind === 'held') {
      // Already applied (a stale order's answer carried it); its legal orders still count.
      if (p.legal) this.legal = p.legal;
      return;
    }
    if (step.kind === 'gap') {
      this.gaps++;
      return;
    }
    // A patch that does not fit is the server's fault here: the test that meets it must fail.
    if (step.kind === 'drift') throw new Error(`patch ${p.from}→${p.to} does not fit the view held`);
    this.view = step.view;
    this.version = step.version;
    if (p.legal) this.legal = p.legal;
    this.moved();
  }

  async ready(): Promise<void> {
    if (this.socket.connected) return;
    await new Promise<void>((resolve, reject) => {
      this.socket.once('hello', () => resolve());
      this.socket.once('connect_error', reject);
    });
  }

  emit<T>(event: string, payload: unknown): Promise<Ack<T>> {
    return this.socket.timeout(10_000).emitWithAck(event, payload) as Promise<Ack<T>>;
  }

  async subscribe(version?: number): Promise<Ack<SubscribeResult>> {
    await this.ready();
    const r = await this.emit<SubscribeResult>('world/subscribe', {
      worldId: this.worldId,
      ...(version === undefined ? {} : { version }),
    });
    if (!r.ok) return r;
    this.playerId = r.playerId;
    this.legal = r.legal;
    this.status = r.status;
    this.chat = r.chat.map((m) => ({ body: m.body, to: m.to }));
    if (r.sync.kind === 'view') {
      this.view = r.sync.view as View;
      this.version = r.sync.version;
      this.moved();
    } else {
      for (const p of r.sync.patches) this.onPatch(p);
    }
    return r;
  }

  order(order: unknown, version = this.version) {
    return this.emit<{ version: number; deferred: boolean }>('world/order', {
      worldId: this.worldId,
      version,
      order,
    });
  }

  /** Waits until this client has reached `version`, looking again each time its version moves. */
  until(version: number, ms = 10_000): Promise<void> {
    if (this.version >= version) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter = () => {
        if (this.version < version) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`client stuck at ${this.version}, wanted ${version}`));
      }, ms);
      this.waiters.add(waiter);
    });
  }

  /** Tells the waiters of `until` that the version moved. */
  private moved() {
    for (const w of [...this.waiters]) w();
  }

  close() {
    this.socket.close();
  }
}

/** A simple policy over the legal orders the server sent: the engine's own defaults, spelled out. */
/** The order `chooseOrder` picks, parsed as the socket's schema parses what a client sends. */
export function pickOrder(legal: LegalOrders, splitOnce: { done: boolean }): Order | null {
  const raw = chooseOrder(legal, splitOnce);
  return raw === null ? null : orderSchema.parse(raw);
}

function chooseOrder(legal: LegalOrders, splitOnce: { done: boolean }): unknown | null {
  const find = (t: string) => legal.find((o) => o.type === t) as Record<string, unknown> | undefined;
  const start = find('chooseStart');
  if (start) return { type: 'chooseStart', position: start.position, area: (start.areas as string[])[0] };
  const split = find('split');
  if (split && !splitOnce.done) {
    splitOnce.done = true;
    return { type: 'split', tribe: split.tribe };
  }
  if (find('endPhase')) return { type: 'endPhase' };
  if (find('combatDone')) return { type: 'combatDone' };
  const disband = find('disband');
  if (disband) return { type: 'disband', unit: disband.unit };
  const keep = find('keepGroup');
  if (keep) return { type: 'keepGroup', area: keep.area };
  const remove = find('removeUnits');
  if (remove)
    return { type: 'removeUnits', units: (remove.candidates as string[]).slice(0, remove.count as number) };
  const found = find('foundKingdom');
  if (found)
    return {
      type: 'foundKingdom',
      leaderWith: (found.leaderWith as string[])[0],
      capital: (found.capital as string[])[0] ?? null,
    };
  return null;
}

/** The view without the per-viewer field, for comparing what two viewers hold. */
export const shared = (v: unknown) => {
  const { viewer: _v, ...rest } = v as { viewer: unknown };
  return rest;
};
