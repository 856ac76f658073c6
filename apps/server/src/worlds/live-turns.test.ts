import { describe, expect, it } from 'vitest';
import { turnAt } from './live-turns.ts';

describe('the turn an order was given in', () => {
  // Created at turn 1; order 5 began turn 2, order 9 began turn 3; the rollback row 12 returned the
  // world to the state after order 5 (the start of turn 2), undoing orders 6 to 11.
  const marks = [
    { seq: 0, turn: 1 },
    { seq: 5, turn: 2 },
    { seq: 9, turn: 3 },
    { seq: 12, turn: 2, toSeq: 5 },
    { seq: 15, turn: 3 },
  ];

  it('is the turn of the last mark before it: an order that ends a turn was given in that turn', () => {
    expect(turnAt(marks, 1)).toBe(1);
    expect(turnAt(marks, 5)).toBe(1);
    expect(turnAt(marks.slice(0, 3), 6)).toBe(2);
    expect(turnAt(marks.slice(0, 3), 10)).toBe(3);
  });

  it('after a rollback is the turn it returned to, and the undone orders have none', () => {
    for (const undone of [6, 9, 10, 11]) expect(turnAt(marks, undone)).toBeNull();
    expect(turnAt(marks, 13)).toBe(2);
    expect(turnAt(marks, 15)).toBe(2);
    expect(turnAt(marks, 16)).toBe(3);
  });
});
