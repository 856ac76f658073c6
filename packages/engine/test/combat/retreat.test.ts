import { describe, expect, it } from 'vitest';
import { isLegalRetreat, type RetreatingUnit, retreatOptions } from '../../src/combat/retreat.ts';
import type { StackPiece } from '../../src/model/stacking.ts';
import { toyBoard } from './board.ts';

const mine = (kind: StackPiece['kind']): StackPiece => ({ kind, owner: 'red' });
const theirs = (kind: StackPiece['kind']): StackPiece => ({ kind, owner: 'blue' });
const neutral: StackPiece = { kind: 'neutralGarrison', owner: null };
const bow: RetreatingUnit = { id: 'bow', kind: 'bow', owner: 'red', movement: 3 };
const tribe: RetreatingUnit = { id: 't', kind: 'tribe', owner: 'red', movement: 1 };

describe('D-16 retreat through friendly units — BOOK (7.3)', () => {
  // The bow in B was attacked from C; A and F are its only other neighbours.
  const base = toyBoard('A-B B-C B-F A-E F-G').place('C', theirs('infantry'));

  it('may enter an area holding only a friendly 4-2', () => {
    const board = base.place('A', mine('infantry')).place('F', mine('infantry'), mine('ship'));
    expect(retreatOptions(board, { unit: bow, from: 'B', distance: 1, fought: ['C'] })).toEqual({
      kind: 'paths',
      paths: [['A']],
    });
  });

  it('may pass through an area holding only a friendly 4-2', () => {
    const board = base.place('A', mine('infantry')).place('F', mine('infantry'), mine('ship'));
    const options = retreatOptions(board, { unit: bow, from: 'B', distance: 2, fought: ['C'] });
    expect(options).toEqual({ kind: 'paths', paths: [['A', 'E']] });
  });

  it('is eliminated when every path crosses a friendly 4-2 + 1-4', () => {
    const board = base.place('A', mine('infantry'), mine('ship')).place('F', mine('infantry'), mine('ship'));
    const options = retreatOptions(board, { unit: bow, from: 'B', distance: 1, fought: ['C'] });
    expect(options.kind).toBe('eliminated');
    expect(options.kind === 'eliminated' && options.reason).toBe('retreat/noPath');
  });
});

describe('retreat criterion 1: legal at every step (7.3, 11.3)', () => {
  it('never enters unfriendly units or neutral garrisons, but an enemy lone leader does not block', () => {
    const board = toyBoard('A-B B-C B-D B-E')
      .place('C', theirs('infantry'))
      .place('A', neutral)
      .place('D', theirs('leader'))
      .place('E', theirs('bow'));
    expect(retreatOptions(board, { unit: bow, from: 'B', distance: 1, fought: ['C'] })).toEqual({
      kind: 'paths',
      paths: [['D']],
    });
  });

  it('never passes through a friendly garrison', () => {
    const board = toyBoard('B-A A-E B-C').place('C', theirs('infantry')).place('A', mine('garrison'));
    expect(retreatOptions(board, { unit: bow, from: 'B', distance: 2, fought: ['C'] }).kind).toBe(
      'eliminated',
    );
  });

  it('never returns to its start area or revisits an area', () => {
    const board = toyBoard('B-A A-E E-B B-C').place('C', theirs('infantry'));
    const options = retreatOptions(board, { unit: bow, from: 'B', distance: 3, fought: ['C'] });
    expect(options.kind).toBe('eliminated');
  });

  it('respects areas forbidden to this combat (no swapping places)', () => {
    const board = toyBoard('B-A B-D B-C').place('C', theirs('infantry'));
    const options = retreatOptions(board, {
      unit: bow,
      from: 'B',
      distance: 1,
      fought: ['C'],
      forbidden: new Set(['A']),
    });
    expect(options).toEqual({ kind: 'paths', paths: [['D']] });
  });
});

describe('retreat criterion 2: away from the units fought (7.3)', () => {
  it('ends not adjacent to a unit it fought if it can', () => {
    const board = toyBoard('A-B B-C B-X X-C').place('C', theirs('infantry'));
    expect(retreatOptions(board, { unit: bow, from: 'B', distance: 1, fought: ['C'] })).toEqual({
      kind: 'paths',
      paths: [['A']],
    });
  });

  it('falls back to an adjacent end when nothing else is legal', () => {
    const board = toyBoard('B-C B-X X-C').place('C', theirs('infantry'));
    expect(retreatOptions(board, { unit: bow, from: 'B', distance: 1, fought: ['C'] })).toEqual({
      kind: 'paths',
      paths: [['X']],
    });
  });

  it('prefers a first area not adjacent to the enemy when the ends are equally far', () => {
    const board = toyBoard('B-A B-X B-C X-C X-Y A-Z Z-W W-C').place('C', theirs('infantry'));
    expect(retreatOptions(board, { unit: bow, from: 'B', distance: 2, fought: ['C'] })).toEqual({
      kind: 'paths',
      paths: [['A', 'Z']],
    });
  });

  it('ends as far away as possible, and lets the owner choose among equals', () => {
    const board = toyBoard('B-A A-P A-Q Q-C B-C B-D D-R').place('C', theirs('infantry'));
    const options = retreatOptions(board, { unit: bow, from: 'B', distance: 2, fought: ['C'] });
    expect(options).toEqual({
      kind: 'paths',
      paths: [
        ['A', 'P'],
        ['D', 'R'],
      ],
    });
    expect(isLegalRetreat(options, ['D', 'R'])).toBe(true);
    expect(isLegalRetreat(options, ['A', 'Q'])).toBe(false);
  });

  it('measures from every area holding a unit it fought', () => {
    const board = toyBoard('B-A B-D B-C B-C2 C2-D').place('C', theirs('infantry')).place('C2', theirs('bow'));
    expect(retreatOptions(board, { unit: bow, from: 'B', distance: 1, fought: ['C', 'C2'] })).toEqual({
      kind: 'paths',
      paths: [['A']],
    });
  });
});

describe('retreat criterion 3: unfriendly cities last (7.3)', () => {
  const edges = 'B-A B-D B-C';
  it('avoids an unfriendly city when another path meets criteria 1 and 2', () => {
    const board = toyBoard(edges, { unfriendlyCities: ['A'] }).place('C', theirs('infantry'));
    expect(retreatOptions(board, { unit: bow, from: 'B', distance: 1, fought: ['C'] })).toEqual({
      kind: 'paths',
      paths: [['D']],
    });
  });
  it('enters one when every path does', () => {
    const board = toyBoard(edges, { unfriendlyCities: ['A', 'D'] }).place('C', theirs('infantry'));
    expect(retreatOptions(board, { unit: bow, from: 'B', distance: 1, fought: ['C'] })).toEqual({
      kind: 'paths',
      paths: [['A'], ['D']],
    });
  });
});

describe('retreat eliminations (7.2, 9.3.1, 11.3, 14.1)', () => {
  it('eliminates a unit whose MA is below the distance, after moving it as far as it can', () => {
    const board = toyBoard('B-A A-E B-D B-C').place('C', theirs('infantry'));
    const options = retreatOptions(board, { unit: tribe, from: 'B', distance: 2, fought: ['C'] });
    expect(options).toEqual({ kind: 'eliminated', reason: 'retreat/movement', partialPaths: [['A'], ['D']] });
  });

  it('eliminates MA-0 units (garrisons, neutral garrisons) on any retreat', () => {
    const garrison: RetreatingUnit = { id: 'g', kind: 'garrison', owner: 'red', movement: 0 };
    const board = toyBoard('B-A B-C');
    expect(retreatOptions(board, { unit: garrison, from: 'B', distance: 1, fought: ['C'] })).toEqual({
      kind: 'eliminated',
      reason: 'retreat/immobile',
      partialPaths: [[]],
    });
  });

  it('never retreats a tribe into a desert; with only desert around it is eliminated', () => {
    const board = toyBoard('B-A B-D B-C', { desert: ['A'] }).place('C', theirs('tribe'));
    expect(retreatOptions(board, { unit: tribe, from: 'B', distance: 1, fought: ['C'] })).toEqual({
      kind: 'paths',
      paths: [['D']],
    });
    const desert = toyBoard('B-A B-C', { desert: ['A'] }).place('C', theirs('tribe'));
    expect(retreatOptions(desert, { unit: tribe, from: 'B', distance: 1, fought: ['C'] }).kind).toBe(
      'eliminated',
    );
    expect(retreatOptions(desert, { unit: bow, from: 'B', distance: 1, fought: ['C'] }).kind).toBe('paths');
  });

  it('a tribe may not retreat onto another tribe (tribes stand alone, 6)', () => {
    const board = toyBoard('B-A B-C').place('C', theirs('tribe')).place('A', mine('tribe'));
    expect(retreatOptions(board, { unit: tribe, from: 'B', distance: 1, fought: ['C'] }).kind).toBe(
      'eliminated',
    );
  });
});
