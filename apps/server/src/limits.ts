import type { MailLimits } from './mail/mail-limits.ts';

/**
 * Every limit the server enforces on what one address or one account may do, in one place: the
 * defaults, the environment variable that changes each (config.ts), and the table in docs/limits.md,
 * which also gives the reasons for the numbers.
 */
export interface Limits {
  /** Sign-ups and log-ins per client address: a bucket of `burst`, refilled at `perMinute`. */
  authPerAddress: { burst: number; perMinute: number };
  /**
   * Failed log-ins an account takes before it slows down: after that, each further attempt waits
   * twice as long as the one before (from `loginFirstDelaySeconds`, up to `loginMaxDelaySeconds`),
   * whatever the address.
   * A browser that once logged in to the account (its device cookie) is not slowed down.
   */
  loginFreeFailures: number;
  loginFirstDelaySeconds: number;
  loginMaxDelaySeconds: number;
  /** Socket events per account across all its sockets (per address for anonymous sockets). */
  socketEvents: { burst: number; perSecond: number };
  /** Open sockets per client address, and per account. */
  socketsPerAddress: number;
  socketsPerAccount: number;
  /** Worlds one account may create in 24 hours (admins are not limited). */
  worldsPerDay: number;
  /** Chat lines one account may send in a minute, over all worlds. */
  chatPerMinute: number;
  /** How often one account may join the same world in 24 hours (each join grows the world for good). */
  joinsPerWorldPerDay: number;
  /** "Forgot password" requests per client address: a bucket of `burst`, refilled at `perMinute`. */
  forgotPerAddress: { burst: number; perMinute: number };
  /** New passwords set with a reset link, per client address and per link. */
  resetPerAddress: { burst: number; perMinute: number };
  /**
   * Links that do not hold (a made-up reset or verification link, an unreadable body) per client
   * address, counted in each process's memory: once spent, the link routes refuse the address
   * before reading its body (rate-limit/made-up-links.ts).
   */
  madeUpLinksPerAddress: { burst: number; perMinute: number };
  /** Worlds created from one client address in 24 hours, whatever the accounts (admins are not limited). */
  worldsPerAddressPerDay: number;
  /**
   * Links one account is mailed per hour, per kind (password reset, address verification): beyond
   * that, requests are answered as usual and nothing more is sent (so an address cannot be flooded).
   */
  accountLinksPerHour: number;
  /** Mail to one mailbox, and links asked for by one client address (mail/mail-limits.ts). */
  mail: MailLimits;
  /**
   * Past turns replayed per client address, and per account: each replay plays the turn's orders
   * again through the engine on the event loop every world shares, so a flood of them is refused.
   */
  replays: { burst: number; perMinute: number };
  /**
   * Notes saved and chat blocks changed, per account over all worlds: a page saves notes a moment
   * after typing stops, so a person stays far below this; a program writing in a loop does not.
   */
  privateWrites: { burst: number; perMinute: number };
  /** A stale order is answered with the missed patches when at most this many; else the client resyncs. */
  staleOrderPatches: number;
}

export const DEFAULT_LIMITS: Limits = {
  authPerAddress: { burst: 10, perMinute: 12 },
  loginFreeFailures: 5,
  loginFirstDelaySeconds: 1,
  loginMaxDelaySeconds: 300,
  socketEvents: { burst: 40, perSecond: 20 },
  socketsPerAddress: 64,
  socketsPerAccount: 16,
  worldsPerDay: 10,
  chatPerMinute: 20,
  joinsPerWorldPerDay: 3,
  staleOrderPatches: 50,
  forgotPerAddress: { burst: 5, perMinute: 1 },
  resetPerAddress: { burst: 5, perMinute: 1 },
  madeUpLinksPerAddress: { burst: 10, perMinute: 10 },
  worldsPerAddressPerDay: 20,
  accountLinksPerHour: 3,
  mail: {
    linksPerHour: 5,
    linksPerDay: 10,
    verifyPerWeek: 3,
    noticesPerHour: 10,
    turnsPerHour: 30,
    perClientAddressPerHour: 10,
  },
  replays: { burst: 20, perMinute: 20 },
  privateWrites: { burst: 30, perMinute: 30 },
};

export type LimitOverrides = Partial<Limits>;

export const limitsWith = (o: LimitOverrides = {}): Limits => ({ ...DEFAULT_LIMITS, ...o });
