import { describe, expect, it } from 'vitest';
import { sameHead, type WorldDigest, WorldDigests } from './digests.ts';
import type { WorldHead } from './store.ts';

const head = (version: number, more: Partial<WorldHead> = {}): WorldHead => ({
  version,
  stepKey: `1|p1|movement`,
  deadlineAt: new Date('2026-01-01T00:00:00Z'),
  status: 'running',
  ...more,
});

const digest = (h: WorldHead): WorldDigest => ({
  head: h,
  turn: 1,
  step: { kind: 'playerTurn', phase: 'movement' },
  waitingFor: [],
  victory: 'basic',
  players: [],
  standings: null,
});

describe('world digests', () => {
  it('describe a world only while its stored head is the one they were taken at', () => {
    const d = new WorldDigests();
    d.set('w', digest(head(7)));
    expect(d.current('w', head(7, { deadlineAt: new Date('2026-01-01T00:00:00Z') }))).toBeDefined();
    expect(d.current('w', head(8))).toBeUndefined();
    expect(d.current('w', head(7, { status: 'paused' }))).toBeUndefined();
    expect(d.current('w', head(7, { stepKey: '1|p2|movement' }))).toBeUndefined();
    expect(d.current('w', head(7, { deadlineAt: null }))).toBeUndefined();
    expect(d.current('other', head(7))).toBeUndefined();
    expect(sameHead(head(3, { deadlineAt: null }), head(3, { deadlineAt: null }))).toBe(true);
  });

  it('keep at most their cap, dropping the digest taken longest ago', () => {
    const d = new WorldDigests(3);
    for (const id of ['a', 'b', 'c']) d.set(id, digest(head(1)));
    // Taken again: now the newest.
    d.set('a', digest(head(2)));
    d.set('d', digest(head(1)));
    expect(d.size).toBe(3);
    expect(d.current('b', head(1))).toBeUndefined();
    expect(d.current('a', head(2))).toBeDefined();
    expect(d.current('c', head(1))).toBeDefined();
    d.delete('c');
    expect(d.size).toBe(2);
  });
});
