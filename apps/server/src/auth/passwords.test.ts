import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('verifies the right password and rejects a wrong one; salts differ; OWASP cost', async () => {
    const h = await hashPassword('correct horse');
    expect(h).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('correct horse', h)).toBe(true);
    expect(await verifyPassword('correct horsf', h)).toBe(false);
    expect(await hashPassword('correct horse')).not.toBe(h);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
    expect(needsRehash(h)).toBe(false);
    // Three hashes at OWASP's cost take about a second alone, more on a shared machine.
  }, 30_000);

  it('asks for a rehash of a cheaper hash, and refuses a stored cost beyond reason', async () => {
    expect(needsRehash('scrypt$16384$8$1$AAAA$AAAA')).toBe(true);
    expect(await verifyPassword('x', 'scrypt$1073741824$8$1$AAAA$AAAA')).toBe(false);
  });
});
