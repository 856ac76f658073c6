// The task each password-hashing thread runs (auth/hashing-pool.ts): one scrypt, computed on this
// worker thread itself. scryptSync, not scrypt: the callback form would hand the work back to
// libuv's four threads, the ones file reads and DNS wait for, which is what this pool avoids.
// Plain JavaScript so that the same file runs from the sources and beside the build.
import { scryptSync } from 'node:crypto';

/**
 * @param {{ password: string, salt: Uint8Array, n: number, r: number, p: number, keylen: number, maxmem: number }} t
 * @returns {{ key: Uint8Array, seconds: number }} the key, and how long it took on this thread
 */
export default function scrypt(t) {
  const started = performance.now();
  const key = scryptSync(t.password, t.salt, t.keylen, { N: t.n, r: t.r, p: t.p, maxmem: t.maxmem });
  return { key, seconds: (performance.now() - started) / 1000 };
}
