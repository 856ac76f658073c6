import { describe, expect, it } from 'vitest';
import { pursuitStops } from '../../src/combat/pursuit.ts';

describe('pursuit along the retreat path (7.2)', () => {
  const open = () => true;

  it('may stop anywhere from the vacated area along the path, within its MA', () => {
    expect(
      pursuitStops({ origin: 'B', path: ['A', 'E'], movement: 4, mayEnter: open, mayEnd: open }),
    ).toEqual(['B', 'A', 'E']);
    expect(
      pursuitStops({ origin: 'B', path: ['A', 'E'], movement: 2, mayEnter: open, mayEnd: open }),
    ).toEqual(['B', 'A']);
  });

  it('never enters the area where the retreated unit (or any unfriendly unit) stands', () => {
    const mayEnter = (a: string) => a !== 'E';
    expect(pursuitStops({ origin: 'B', path: ['A', 'E'], movement: 4, mayEnter, mayEnd: open })).toEqual([
      'B',
      'A',
    ]);
  });

  it('passes through but does not stop where stacking would break', () => {
    const mayEnd = (a: string) => a !== 'A';
    expect(pursuitStops({ origin: 'B', path: ['A', 'E'], movement: 4, mayEnter: open, mayEnd })).toEqual([
      'B',
      'E',
    ]);
  });

  it('follows an eliminated unit only as far as it got (its partial path)', () => {
    expect(pursuitStops({ origin: 'B', path: [], movement: 4, mayEnter: open, mayEnd: open })).toEqual(['B']);
  });
});
