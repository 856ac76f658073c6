/**
 * Password hashing with Node's scrypt (memory-hard): `scrypt$N$r$p$salt$hash`, base64url parts.
 * The cost is OWASP's for scrypt (N=2^17, r=8, p=1: 128 MiB and about a third of a second per
 * hash here). A hash made with a lower cost is replaced at the account's next log-in
 * (`needsRehash`), when the password is at hand. The hashes run on threads of their own with a
 * bounded queue (hashing-pool.ts).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../http/errors.ts';
import { runScrypt } from './hashing-pool.ts';

const SCRYPT_N = 2 ** 17;
const R = 8;
const P = 1;
const KEYLEN = 32;
/** scrypt needs 128·N·r bytes; Node refuses above `maxmem` (32 MiB by default). */
const MAXMEM = 256 * 1024 * 1024;
/** The most a stored hash may ask for: a damaged or hostile row must not make us allocate more. */
const MAX_N = 2 ** 20;

/** On the hashing threads (hashing-pool.ts), never on libuv's; may throw `auth/busy`. */
function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return runScrypt({ password, salt, n, r, p, keylen: KEYLEN, maxmem: MAXMEM });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT_N, R, P);
  return ['scrypt', SCRYPT_N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parts(stored: string) {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !n || !r || !p || !salt || !hash) return null;
  const [N, rr, pp] = [Number(n), Number(r), Number(p)];
  if (!Number.isInteger(N) || N < 2 || N > MAX_N || !Number.isInteger(rr) || !Number.isInteger(pp))
    return null;
  return { N, r: rr, p: pp, salt, hash };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const h = parts(stored);
  if (!h) return false;
  const expected = Buffer.from(h.hash, 'base64url');
  let key: Buffer;
  try {
    key = await scrypt(password, Buffer.from(h.salt, 'base64url'), h.N, h.r, h.p);
  } catch (e) {
    if (e instanceof HttpError) throw e; // busy: not an answer about the password
    return false; // parameters scrypt refuses: no password matches such a hash
  }
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Whether a stored hash was made with less than today's cost. */
export function needsRehash(stored: string): boolean {
  const h = parts(stored);
  return !h || h.N < SCRYPT_N || h.r < R || h.p < P;
}

/** A hash to compare against when the account does not exist, so timing does not reveal names. */
export const DUMMY_HASH = `scrypt$${SCRYPT_N}$${R}$${P}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
