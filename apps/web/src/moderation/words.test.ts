import type { AuditEntry } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { canModerate, routePath } from './client.ts';
import { describeAction } from './words.ts';

const entry = (action: AuditEntry['action'], params: Record<string, unknown>): AuditEntry => ({
  id: '1',
  actor: { id: 'a', username: 'mod1' },
  action,
  worldId: null,
  targetUserId: null,
  reason: 'because',
  params,
  at: '2026-11-21T12:00:00.000Z',
});

describe('moderation words', () => {
  it('says what a rollback undid', () => {
    expect(describeAction(entry('world.rollback', { turn: 2, undone: [{}, {}, {}] }))).toBe(
      'mod1 rolled the world back to turn 2 (3 orders undone)',
    );
  });
  it('says whether a ban ends', () => {
    expect(describeAction(entry('user.ban', { username: 'carol', until: null }))).toBe(
      'mod1 banned an account (carol, until lifted)',
    );
    expect(
      describeAction(entry('seat.handOver', { playerId: 'p2', fromUsername: 'bob', toUsername: 'carol' })),
    ).toBe('mod1 handed a seat over (p2: bob → carol)');
  });
});

describe('moderation routes on the client', () => {
  it('fills and encodes the parameters, and refuses a missing one', () => {
    expect(routePath('removePlayer', { id: 'w 1', playerId: 'p2' })).toBe(
      '/api/moderation/worlds/w%201/seats/p2/remove',
    );
    expect(() => routePath('pauseWorld')).toThrow(/missing parameter/);
  });
  it('opens the area to moderators and admins only', () => {
    expect([
      canModerate('player'),
      canModerate('moderator'),
      canModerate('admin'),
      canModerate(null),
    ]).toEqual([false, true, true, false]);
  });
});
