/**
 * Who is logged in. The session itself is an httpOnly cookie set by the server; the client only
 * keeps the account it describes. The socket reads the cookie when it connects, so it reconnects
 * whenever the account changes.
 */
import type { User } from '@bke/protocol';
import { call } from './api.ts';
import { connection } from './connection.svelte.ts';

class Session {
  user = $state<User | null>(null);
  /** False until the server has said whether a session cookie is valid. */
  known = $state(false);
  /** The session ended elsewhere (logged out in another tab, a password change, a ban, expiry). */
  endedElsewhere = $state(false);

  async refresh(): Promise<void> {
    try {
      const r = await call('me');
      if (this.user && !r.user) this.endedElsewhere = true;
      this.user = r.user;
    } catch {
      this.user = null;
    } finally {
      this.known = true;
    }
  }
  /**
   * With an e-mail address, the server mails a link to confirm it. The browser's time zone becomes
   * the account's, for the deadlines in its mail (the account page changes it).
   */
  async signup(username: string, password: string, email?: string): Promise<void> {
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const r = await call('signup', {
      body: { username, password, ...(email ? { email } : {}), ...(timeZone ? { timeZone } : {}) },
    });
    this.user = r.user;
    connection.reconnect();
  }
  async login(username: string, password: string): Promise<void> {
    const r = await call('login', { body: { username, password } });
    this.user = r.user;
    this.endedElsewhere = false;
    connection.reconnect();
  }
  async logout(): Promise<void> {
    await call('logout', { body: {} });
    this.user = null;
    connection.reconnect();
  }
}

export const session = new Session();
// The server ended the page's connection (this session logged out elsewhere, a ban): ask who we are.
connection.ended.push(() => void session.refresh());
connection.reauthenticated.push(() => void session.refresh());
