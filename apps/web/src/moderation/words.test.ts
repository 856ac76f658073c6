import type { AuditEntry } from '@bke/protocol';
import { routeUrl } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { canModerate } from './client.ts';
import { describeAction, doneWords } from './words.ts';

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
  it('says what a rollback undid, naming the world', () => {
    const e = { ...entry('world.rollback', { turn: 2, undone: [{}, {}, {}] }), worldName: 'Gaul' };
    expect(describeAction(e)).toBe(
      'mod1 rolled the world “Gaul” back to the start of turn 2 (3 orders undone)',
    );
    expect(describeAction(entry('world.rollback', { turn: 2, undone: [{}] }))).toBe(
      'mod1 rolled the world back to the start of turn 2 (1 order undone)',
    );
  });
  it('says whether a ban ends, in local time, and "forever" instead of the year 9999', () => {
    expect(describeAction(entry('user.ban', { username: 'carol', until: null }))).toBe(
      'mod1 banned carol forever',
    );
    expect(describeAction(entry('user.mute', { username: 'carol', until: '9999-12-31T00:00:00.000Z' }))).toBe(
      'mod1 muted carol forever',
    );
    const until = describeAction(
      entry('user.mute', { username: 'carol', until: '2026-12-01T10:00:00.000Z' }),
    );
    expect(until).toMatch(/^mod1 muted carol until .*2026/);
    expect(until).not.toContain('2026-12-01T');
  });
  it('says what an operator did on the command line', () => {
    const cli = (action: AuditEntry['action'], params: Record<string, unknown>) => ({
      ...entry(action, params),
      actor: { id: '00000000-0000-0000-0000-000000000000', username: 'the command line' },
    });
    expect(describeAction(cli('user.create', { username: 'Theodoric', role: 'admin' }))).toBe(
      'the command line created Theodoric as an admin',
    );
    expect(describeAction(cli('user.resetPassword', { username: 'bob', sessions: 2 }))).toBe(
      'the command line set a new password for bob (every session of theirs ended)',
    );
    expect(describeAction(cli('user.endSessions', { username: 'bob', sessions: 1 }))).toBe(
      'the command line logged bob out everywhere (1 session ended)',
    );
    expect(describeAction(cli('mail.retry', { ids: ['4', '9'] }))).toBe(
      'the command line put 2 failed messages back in the outbox',
    );
    expect(
      describeAction(cli('migration.resolve', { migration: '20990101000000_x', as: 'rolled-back' })),
    ).toBe('the command line marked the failed migration 20990101000000_x rolled back');
  });
  it('names people and seats, never ids or codes', () => {
    expect(
      describeAction(entry('seat.handOver', { playerId: 'p2', fromUsername: 'bob', toUsername: 'carol' })),
    ).toBe('mod1 handed bob’s seat in the world to carol');
    const removed = {
      ...entry('seat.remove', { playerId: 'p1', username: 'Brenna', abandoned: true }),
      worldName: 'Gaul',
    };
    expect(describeAction(removed)).toBe(
      'mod1 removed Brenna from the world “Gaul” (their position was abandoned)',
    );
    const absent = { ...entry('seat.absent', { playerId: 'p3', absent: true }), targetUsername: 'dora' };
    expect(describeAction(absent)).toBe('mod1 marked dora’s seat in the world absent');
    expect(doneWords({ ...entry('world.pause', {}), worldName: 'Gaul' })).toBe(
      'Done: paused the world “Gaul”.',
    );
    for (const e of [removed, absent]) expect(describeAction(e)).not.toMatch(/\bp\d\b|seat\.remove|#/);
  });
});

describe('moderation routes on the client', () => {
  it('fills and encodes the parameters, and refuses a missing one', () => {
    expect(routeUrl('removePlayer', { params: { id: 'w 1', playerId: 'p2' }, body: { reason: 'abc' } })).toBe(
      '/api/moderation/worlds/w%201/seats/p2/remove',
    );
    expect(() => routeUrl('pauseWorld', { params: {} as { id: string }, body: { reason: 'abc' } })).toThrow(
      /needs the parameter id/,
    );
    expect(routeUrl('listReports', { query: { status: 'resolved' } })).toBe(
      '/api/moderation/reports?status=resolved',
    );
    expect(routeUrl('auditLog', { query: { before: undefined } })).toBe('/api/moderation/audit');
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
