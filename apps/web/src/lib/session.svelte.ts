/**
 * Who is logged in. The session itself is an httpOnly cookie set by the server; the client only
 * keeps the account it describes.
 */
import { api } from './api.ts';

export interface User {
  readonly id: string;
  readonly name: string;
  readonly role: 'player' | 'moderator' | 'admin';
}

class Session {
  user = $state<User | null>(null);
  /** False until the server has said whether a session cookie is valid. */
  known = $state(false);

  async refresh(): Promise<void> {
    try {
      const r = await api<{ user: User | null }>('GET', '/api/auth/me');
      this.user = r.user;
    } catch {
      this.user = null;
    } finally {
      this.known = true;
    }
  }
  async signup(name: string, password: string): Promise<void> {
    const r = await api<{ user: User }>('POST', '/api/auth/signup', { name, password });
    this.user = r.user;
  }
  async login(name: string, password: string): Promise<void> {
    const r = await api<{ user: User }>('POST', '/api/auth/login', { name, password });
    this.user = r.user;
  }
  async logout(): Promise<void> {
    await api('POST', '/api/auth/logout', {});
    this.user = null;
  }
}

export const session = new Session();
