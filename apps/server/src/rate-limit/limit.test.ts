import { describe, expect, it } from 'vitest';
import { Limit, windowOf } from './limit.ts';

describe('a rate limit', () => {
  it('lets a window of attempts through per key, then refuses with the seconds to wait', async () => {
    const limit = Limit.local({ name: 'test', points: 3, seconds: 60 });
    const taken = [];
    for (let i = 0; i < 4; i++) taken.push(await limit.take('a'));
    expect(taken.map((t) => t.ok)).toEqual([true, true, true, false]);
    expect(taken[2]).toMatchObject({ ok: true, limit: 3, remaining: 0 });
    const refused = taken[3];
    expect(refused?.ok).toBe(false);
    if (refused && !refused.ok) expect(refused.retryAfterSeconds).toBeGreaterThan(55);
    expect((await limit.take('b')).ok).toBe(true);
    await limit.forget('a');
    expect((await limit.take('a')).ok).toBe(true);
  });

  it('turns a bucket of `burst` refilled at a rate into the nearest window', () => {
    expect(windowOf('auth', 10, 12 / 60)).toEqual({ name: 'auth', points: 10, seconds: 50 });
    expect(windowOf('socket', 40, 20)).toEqual({ name: 'socket', points: 40, seconds: 2 });
    expect(windowOf('fast', 5, 100)).toEqual({ name: 'fast', points: 5, seconds: 1 });
  });
});
