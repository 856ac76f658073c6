import { describe, expect, it } from 'vitest';
import { shouldNotify, titleFor } from './attention.svelte.ts';
import type { WorldSummary } from './lobby.ts';
import { isMyMove, isMyMoveIn } from './world/my-move.ts';

describe('telling players it is their move', () => {
  it('puts the worlds waiting for the player in the tab title', () => {
    expect(titleFor(null, 0)).toBe('BKE Online');
    expect(titleFor(null, 2)).toBe('(2) BKE Online');
    expect(titleFor('Migration Age', 0)).toBe('Migration Age — BKE Online');
    expect(titleFor('Migration Age', 1)).toBe('▶ Your move · Migration Age — BKE Online');
  });

  it('notifies once, when the world starts waiting, the page is hidden and the player allowed it', () => {
    expect(shouldNotify(false, true, true, true)).toBe(true);
    expect(shouldNotify(true, true, true, true)).toBe(false);
    expect(shouldNotify(false, true, false, true)).toBe(false);
    expect(shouldNotify(false, true, true, false)).toBe(false);
    expect(shouldNotify(true, false, true, true)).toBe(false);
  });

  it('knows whose move it is on the world page: waited for and not ready', () => {
    const view = { viewer: 'p1', waitingFor: ['p1', 'p2'] } as never;
    expect(isMyMove(view, null)).toBe(true);
    expect(isMyMove(view, { ready: ['p1'] } as never)).toBe(false);
    expect(isMyMove({ viewer: null, waitingFor: ['p1'] } as never, null)).toBe(false);
    expect(isMyMove({ viewer: 'p3', waitingFor: ['p1'] } as never, null)).toBe(false);
  });

  it('knows it in the lobby from the seat the account holds', () => {
    const seat = (playerId: string, userId: string, left = false) => ({ playerId, userId, left }) as never;
    const w = {
      status: 'running',
      waitingFor: ['p2'],
      seats: [seat('p1', 'ann'), seat('p2', 'ben')],
    } as unknown as WorldSummary;
    expect(isMyMoveIn(w, 'ben')).toBe(true);
    expect(isMyMoveIn(w, 'ann')).toBe(false);
    expect(isMyMoveIn(w, null)).toBe(false);
    expect(isMyMoveIn({ ...w, status: 'paused' }, 'ben')).toBe(false);
    expect(isMyMoveIn({ ...w, seats: [seat('p2', 'ben', true)] }, 'ben')).toBe(false);
  });
});
