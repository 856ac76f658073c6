/**
 * Letting a socket in: its address and the caps on open sockets per address and per account
 * (counted on every process of the site: cluster/open-sockets.ts), its
 * session read from the handshake's cookie, the rooms of its account and session (so that logging
 * out, a password change, a ban or an expired session ends it), and the greeting. A session lookup
 * that fails for a passing reason (the database away) leaves the socket anonymous for now and is
 * tried again every REAUTH_MS; the socket is greeted anew when it succeeds.
 */
import { SESSION_COOKIE } from '@bke/protocol';
import proxyAddr from '@fastify/proxy-addr';
import { parseCookie } from 'cookie';
import { bearerToken } from '../auth/bearer.ts';
import { type SessionUser, userForToken } from '../auth/sessions.ts';
import type { ClusterLink } from '../cluster/adapter.ts';
import { linkOpenSockets, type OpenCounts, type OpenElsewhere } from '../cluster/open-sockets.ts';
import type { Database } from '../db/database.ts';
import { SERVER_VERSION } from '../http/health.ts';
import type { ProxyTrust } from '../http/origin.ts';
import type { Limits } from '../limits.ts';
import { sessionRoom, userRoom } from './rooms.ts';
import type { BkeSocket, Io } from './typed-server.ts';

/** How often a socket whose session lookup failed tries again. */
const REAUTH_MS = 2000;

/** This process's counts of open sockets per key, for the caps. */
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
  /** The other processes' counts (none until linked to them). */
  private elsewhere: OpenElsewhere = async () => ({ address: 0, account: 0 });

  constructor(
    private readonly db: Database,
    private readonly limits: Limits,
    private readonly trust: ProxyTrust,
    private readonly log: (msg: string, data: object) => void,
  ) {}

  /** Counts the sockets of the site's other processes too, from now on, and tells them this one's. */
  link(io: Io, link: ClusterLink): void {
    this.elsewhere = linkOpenSockets(io, link, (address, account) => ({
      address: this.perAddress.get(address),
      account: account === null ? 0 : this.perAccount.get(account),
    }));
  }

  /** Sockets open for `address` and `account` on every process. */
  private async open(address: string, account: string | null): Promise<OpenCounts> {
    const there = await this.elsewhere(address, account);
    return {
      address: this.perAddress.get(address) + there.address,
      account: (account === null ? 0 : this.perAccount.get(account)) + there.account,
    };
  }

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
    // This process's own count first: a full address costs no question to the others.
    if (this.perAddress.get(address) >= this.limits.socketsPerAddress)
      return refusal('address', this.limits.socketsPerAddress);
    let token: string | undefined;
    try {
      token = parseCookie(socket.handshake.headers.cookie ?? '')[SESSION_COOKIE];
    } catch {
      token = undefined; // an unreadable Cookie header is no session
    }
    token ??= bearerToken(socket.handshake.headers.authorization); // a program's token
    socket.data = { user: null, pendingToken: token ?? null, address, worlds: new Map() };
    const user = await this.authenticate(socket);
    const account = user === 'pending' ? null : user;
    const open = await this.open(address, account?.id ?? null);
    if (open.address >= this.limits.socketsPerAddress)
      return refusal('address', this.limits.socketsPerAddress);
    if (account) {
      if (open.account >= this.limits.socketsPerAccount)
        return refusal('account', this.limits.socketsPerAccount);
      socket.data.user = account;
    }
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
   * Looks the handshake's session up: its account, null (anonymous, or another attempt got there
   * first) or 'pending' (the database did not answer; try again later). The caller counts the
   * account's open sockets before it lets the socket be signed in.
   */
  private async authenticate(socket: BkeSocket): Promise<SessionUser | null | 'pending'> {
    const token = socket.data.pendingToken;
    if (!token) return null;
    let user: SessionUser | null;
    try {
      user = await userForToken(this.db, token);
    } catch (e) {
      this.log('session lookup failed; the socket will try again', { err: String(e) });
      return 'pending';
    }
    if (socket.data.pendingToken === null) return null; // another attempt got there first
    socket.data.pendingToken = null;
    if (!user || (user.bannedUntil && user.bannedUntil.getTime() > Date.now())) return null;
    return user;
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
    const user = await this.authenticate(socket);
    if (user === null || user === 'pending') return;
    if ((await this.open(socket.data.address, user.id)).account >= this.limits.socketsPerAccount) {
      socket.emit('error', { code: 'socket/too_many', per: 'account', limit: this.limits.socketsPerAccount });
      socket.disconnect(true);
      return;
    }
    socket.data.user = user;
    await this.admit(socket);
    greet(socket);
  }
}

/** The greeting: the server's version and time, and who the socket is signed in as. */
function greet(socket: BkeSocket): void {
  const user = socket.data.user;
  socket.emit('hello', {
    serverVersion: SERVER_VERSION,
    serverTime: new Date().toISOString(),
    user: user ? { id: user.id, username: user.username, role: user.role } : null,
    ...(socket.data.pendingToken ? { auth: 'unavailable' as const } : {}),
  });
}
