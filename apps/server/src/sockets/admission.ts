/**
 * Letting a socket in: its address and the caps on open sockets per address and per account, its
 * session read from the handshake's cookie, the rooms of its account and session (so that logging
 * out, a password change, a ban or an expired session ends it), and the greeting. A session lookup
 * that fails for a passing reason (the database away) leaves the socket anonymous for now and is
 * tried again every REAUTH_MS; the socket is greeted anew when it succeeds.
 */
import { SESSION_COOKIE } from '@bke/protocol';
import proxyAddr from '@fastify/proxy-addr';
import { parseCookie } from 'cookie';
import { type SessionUser, userForToken } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import { SERVER_VERSION } from '../http/health.ts';
import type { ProxyTrust } from '../http/origin.ts';
import type { Limits } from '../limits.ts';
import { sessionRoom, userRoom } from './rooms.ts';
import type { BkeSocket, Io } from './typed-server.ts';

/** How often a socket whose session lookup failed tries again. */
const REAUTH_MS = 2000;

/** Per-process counts of open sockets per key, for the caps. */
class Counter {
  private readonly n = new Map<string, number>();
  get(k: string) {
    return this.n.get(k) ?? 0;
  }
  add(k: string, d: 1 | -1) {
    const v = this.get(k) + d;
    if (v <= 0) this.n.delete(k);
    else this.n.set(k, v);
  }
}

const refusal = (per: 'address' | 'account', limit: number) =>
  Object.assign(new Error('socket/too_many'), { data: { code: 'socket/too_many', per, limit } });

export class Admission {
  private readonly perAddress = new Counter();
  private readonly perAccount = new Counter();

  constructor(
    private readonly db: Database,
    private readonly limits: Limits,
    private readonly trust: ProxyTrust,
    private readonly log: (msg: string, data: object) => void,
  ) {}

  /**
   * The handshake's check, before a socket is let in: its address and the caps, and its session
   * (so that a socket is counted against its account before it is admitted).
   */
  install(io: Io): void {
    io.use((raw, next) => {
      const socket = raw as unknown as BkeSocket;
      this.check(socket).then(
        (refused) => next(refused),
        (e) => {
          this.log('socket admission failed', { err: String(e) });
          next(Object.assign(new Error('socket/internal'), { data: { code: 'socket/internal' } }));
        },
      );
    });
  }

  private async check(socket: BkeSocket): Promise<Error | undefined> {
    const address = proxyAddr(socket.request, this.trust);
    if (this.perAddress.get(address) >= this.limits.socketsPerAddress)
      return refusal('address', this.limits.socketsPerAddress);
    let token: string | undefined;
    try {
      token = parseCookie(socket.handshake.headers.cookie ?? '')[SESSION_COOKIE];
    } catch {
      token = undefined; // an unreadable Cookie header is no session
    }
    socket.data = { user: null, pendingToken: token ?? null, address, worlds: new Map() };
    if ((await this.authenticate(socket)) === 'too_many')
      return refusal('account', this.limits.socketsPerAccount);
    return undefined;
  }

  /**
   * A socket let in: counted until it disconnects, put in its rooms and greeted; its session looked
   * up again and again while the first lookup failed.
   */
  connected(socket: BkeSocket): void {
    this.perAddress.add(socket.data.address, 1);
    let retry: NodeJS.Timeout | undefined;
    socket.on('disconnect', () => {
      clearTimeout(retry);
      this.perAddress.add(socket.data.address, -1);
      if (socket.data.user) this.perAccount.add(socket.data.user.id, -1);
    });
    if (socket.data.user)
      void this.admit(socket).catch((e) => this.log('socket rooms not joined', { err: String(e) }));
    greet(socket);
    if (socket.data.pendingToken) {
      socket.emit('error', { code: 'auth/unavailable' });
      const again = () => {
        retry = setTimeout(() => {
          this.retry(socket)
            .catch((e) => this.log('session lookup failed again', { err: String(e) }))
            .finally(() => {
              if (socket.connected && socket.data.pendingToken) again();
            });
        }, REAUTH_MS);
      };
      again();
    }
  }

  /** The socket's account; a lookup that failed for a passing reason is tried again first. */
  async signedIn(socket: BkeSocket): Promise<SessionUser | null> {
    if (!socket.data.user && socket.data.pendingToken) await this.retry(socket);
    return socket.data.user;
  }

  /**
   * Looks the handshake's session up: 'done' (signed in, or anonymous), 'pending' (the database did
   * not answer; try again later) or 'too_many' (the account has its most sockets open already).
   */
  private async authenticate(socket: BkeSocket): Promise<'done' | 'pending' | 'too_many'> {
    const token = socket.data.pendingToken;
    if (!token) return 'done';
    let user: SessionUser | null;
    try {
      user = await userForToken(this.db, token);
    } catch (e) {
      this.log('session lookup failed; the socket will try again', { err: String(e) });
      return 'pending';
    }
    if (socket.data.pendingToken === null) return 'done'; // another attempt got there first
    socket.data.pendingToken = null;
    if (!user || (user.bannedUntil && user.bannedUntil.getTime() > Date.now())) return 'done';
    if (this.perAccount.get(user.id) >= this.limits.socketsPerAccount) return 'too_many';
    socket.data.user = user;
    return 'done';
  }

  /** Counts a signed-in socket against its account and puts it in its account's and session's rooms. */
  private async admit(socket: BkeSocket): Promise<void> {
    const user = socket.data.user;
    if (!user) return;
    this.perAccount.add(user.id, 1);
    await socket.join([userRoom(user.id), sessionRoom(user.sessionId)]);
  }

  /** A connected socket's session lookup, again; greets it anew when it succeeds. */
  private async retry(socket: BkeSocket): Promise<void> {
    const r = await this.authenticate(socket);
    if (r === 'too_many') {
      socket.emit('error', { code: 'socket/too_many', per: 'account', limit: this.limits.socketsPerAccount });
      socket.disconnect(true);
    } else if (r === 'done' && socket.data.user) {
      await this.admit(socket);
      greet(socket);
    }
  }
}

/** The greeting: the server's version and time, and who the socket is signed in as. */
export function greet(socket: BkeSocket): void {
  const user = socket.data.user;
  socket.emit('hello', {
    serverVersion: SERVER_VERSION,
    serverTime: new Date().toISOString(),
    user: user ? { id: user.id, username: user.username, role: user.role } : null,
    ...(socket.data.pendingToken ? { auth: 'unavailable' as const } : {}),
  });
}
