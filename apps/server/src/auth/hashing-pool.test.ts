import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.ts';
import { configureHashing, defaultHashing, hashingStats } from './hashing-pool.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

afterEach(() => configureHashing(defaultHashing()));

describe('the password-hashing pool', () => {
  it('leaves libuv’s threads free: a file is read while four hashes run', async () => {
    configureHashing({ threads: 4, queue: 0 });
    const before = hashingStats().done;
    const hashes = Array.from({ length: 4 }, () => hashPassword('correct horse'));
    // scrypt on libuv (crypto.scrypt) would take all four of its threads: the read would wait
    // for the first hash to finish.
    await readFile(new URL(import.meta.url));
    expect(hashingStats().done - before).toBe(0);
    expect(hashingStats().inFlight).toBe(4);
    for (const h of await Promise.all(hashes)) expect(h).toMatch(/^scrypt\$131072\$8\$1\$/);
  }, 60_000);

  it('refuses a hash beyond its threads and queue with auth/busy and the seconds to wait', async () => {
    configureHashing({ threads: 1, queue: 1 });
    const stored = await hashPassword('correct horse');
    const busyBefore = hashingStats().busy;
    const running = [verifyPassword('correct horse', stored), verifyPassword('wrong', stored)];
    const refused = await verifyPassword('correct horse', stored).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 503, code: 'auth/busy' });
    expect((refused as HttpError).params.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(hashingStats().busy - busyBefore).toBe(1);
    expect(await Promise.all(running)).toEqual([true, false]);
    // Places free again once the hashes are done.
    expect(await verifyPassword('correct horse', stored)).toBe(true);
  }, 60_000);

  it('keeps hashes made before the pool verifiable (the same scrypt format and cost)', async () => {
    // Made by Node's crypto.scrypt on libuv, as the server hashed before: N=2^17, r=8, p=1.
    const old = 'scrypt$131072$8$1$c2FsdHNhbHRzYWx0c2FsdA$pUySixBj4F6qMfSuPv3nt45DhCCh9QkdBFNyjdhtmZw';
    expect(await verifyPassword('ostrogoths493', old)).toBe(true);
    expect(await verifyPassword('ostrogoths494', old)).toBe(false);
  }, 60_000);
});
