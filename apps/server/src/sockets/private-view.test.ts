import type { PatchMessage } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import {
  canonical,
  privatePartStale,
  privateSlice,
  sliceAfterPatches,
  touchesSlice,
} from './private-view.ts';

const patch = (ops: PatchMessage['ops'], to = 2): PatchMessage => ({
  worldId: 'w',
  from: to - 1,
  to,
  ops,
  events: [],
});

describe("a player's private slice of the realm against the public patches", () => {
  const realm = {
    players: { p1: { plan: null, money: 3 }, p2: { plan: null } },
    leases: [],
    ledger: [{ turn: 1 }],
  };
  const held = privateSlice(realm, 'p1');

  it('is the player own entry and the leases, never the (growing) ledger', () => {
    expect(held).toEqual({ player: { plan: null, money: 3 }, leases: [] });
    expect(privateSlice(undefined, 'p1')).toEqual({ player: null, leases: null });
  });

  it('replays only the operations on that slice', () => {
    const after = sliceAfterPatches(held, 'p1', [
      patch([{ op: 'replace', path: '/turn', value: 4 }]),
      patch([{ op: 'add', path: '/realm/ledger/1', value: { turn: 2 } }], 3),
      patch([{ op: 'replace', path: '/realm/players/p1/money', value: 5 }], 4),
      patch([{ op: 'replace', path: '/realm/players/p2/plan', value: 1 }], 5),
    ]);
    expect(after).toEqual({ player: { plan: null, money: 5 }, leases: [] });
    expect(held.player).toEqual({ plan: null, money: 3 }); // the held copy is not changed
  });

  it('is stale when the player recorded a plan the public patches cannot carry', () => {
    const own = { player: { plan: { adminPercent: 20 }, money: 3 }, leases: [] };
    expect(privatePartStale(held, 'p1', [patch([{ op: 'replace', path: '/turn', value: 4 }])], own)).toBe(
      true,
    );
  });

  it('is not stale when the public patches bring the screen to the player own slice (key order aside)', () => {
    const own = { leases: [], player: { money: 5, plan: null } };
    const ops = [patch([{ op: 'replace', path: '/realm/players/p1/money', value: 5 }])];
    expect(privatePartStale(held, 'p1', ops, own)).toBe(false);
    expect(canonical({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
  });

  it('is stale when the realm is replaced wholesale or a patch does not apply', () => {
    expect(
      privatePartStale(held, 'p1', [patch([{ op: 'replace', path: '/realm', value: realm }])], held),
    ).toBe(true);
    const bad = [patch([{ op: 'remove', path: '/realm/players/p1/nothing/here' }])];
    expect(privatePartStale(held, 'p1', bad, held)).toBe(true);
  });

  it('tells whether a patch may touch the slice (for the fast path)', () => {
    expect(touchesSlice([patch([{ op: 'replace', path: '/turn', value: 4 }])], 'p1')).toBe(false);
    expect(touchesSlice([patch([{ op: 'replace', path: '/realm/players/p2/plan', value: 1 }])], 'p1')).toBe(
      false,
    );
    expect(touchesSlice([patch([{ op: 'replace', path: '/realm/players/p1/money', value: 1 }])], 'p1')).toBe(
      true,
    );
    expect(touchesSlice([patch([{ op: 'add', path: '/realm/leases/0', value: {} }])], 'p1')).toBe(true);
  });
});
