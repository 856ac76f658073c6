import { describe, expect, it } from 'vitest';
import { tableOrder } from './table-order.ts';

describe('the order tables are restored in', () => {
  it('puts each table after the ones its foreign keys point at, ties alphabetically', () => {
    const keys = [
      { child: 'world_turn_starts', parent: 'world_orders' },
      { child: 'world_orders', parent: 'worlds' },
      { child: 'worlds', parent: 'users' },
      { child: 'sessions', parent: 'users' },
      { child: 'users', parent: 'users' }, // a table pointing at itself orders nothing
    ];
    expect(
      tableOrder(['world_turn_starts', 'sessions', 'world_orders', 'worlds', 'users', 'audit'], keys),
    ).toEqual(['audit', 'users', 'sessions', 'worlds', 'world_orders', 'world_turn_starts']);
  });

  it('refuses foreign keys in a cycle rather than guess', () => {
    expect(() =>
      tableOrder(
        ['a', 'b'],
        [
          { child: 'a', parent: 'b' },
          { child: 'b', parent: 'a' },
        ],
      ),
    ).toThrow(/cycle among a, b/);
  });
});
