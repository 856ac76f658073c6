import { applyPatch } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { diffViews } from './diff.ts';

describe('diffViews', () => {
  it('emits nothing for the same reference', () => {
    const s = { a: { b: [1, 2] } };
    expect(diffViews(s, s)).toEqual([]);
  });

  it('walks only changed references and round-trips through applyPatch', () => {
    const shared = { big: Array.from({ length: 1000 }, (_, i) => i) };
    const a = { shared, units: { u1: { area: 'x' }, u2: { area: 'y' } }, list: [1, 2, 3], n: 1 };
    const b = {
      shared,
      units: { u1: { area: 'z' }, u3: { area: 'w/~' } },
      list: [1, 5],
      n: 2,
      extra: null,
    };
    const ops = diffViews(a, b);
    expect(ops.some((o) => o.path.startsWith('/shared'))).toBe(false);
    expect(ops).toContainEqual({ op: 'remove', path: '/units/u2' });
    expect(ops).toContainEqual({ op: 'remove', path: '/list/2' });
    expect(applyPatch(a, ops)).toEqual(b);
  });

  it('handles keys needing JSON-pointer escapes and growing arrays', () => {
    const a = { 'a/b': { '~c': [1] } };
    const b = { 'a/b': { '~c': [1, 2, 3] } };
    const ops = diffViews(a, b);
    expect(ops[0]?.path).toBe('/a~1b/~0c/1');
    expect(applyPatch(a, ops)).toEqual(b);
  });

  it('does not mutate its inputs when applied', () => {
    const a = Object.freeze({ x: Object.freeze([1, 2]) });
    const b = { x: [2] };
    expect(applyPatch(a, diffViews(a, b))).toEqual(b);
    expect(a).toEqual({ x: [1, 2] });
  });

  it('takes the first of a queue or appends with one op, and replaces a reshuffled array whole', () => {
    const x = { id: 'x' };
    const y = { id: 'y' };
    const z = { id: 'z' };
    expect(diffViews({ q: [x, y, z] }, { q: [y, z] })).toEqual([{ op: 'remove', path: '/q/0' }]);
    expect(diffViews({ q: [x, y] }, { q: [x, y, z] })).toEqual([{ op: 'add', path: '/q/2', value: z }]);
    const long = Array.from({ length: 20 }, (_, i) => ({ n: i, name: `unit-${i}` }));
    const shuffled = [...long].reverse();
    const ops = diffViews({ q: long }, { q: shuffled });
    expect(ops).toEqual([{ op: 'replace', path: '/q', value: shuffled }]);
    for (const [before, after] of [
      [
        [x, y, z],
        [x, z],
      ],
      [
        [x, z],
        [x, y, z],
      ],
      [
        [x, y, z],
        [z, y, x],
      ],
      [[], [x]],
      [[x, y], []],
    ] as const) {
      const from = { q: before };
      expect(applyPatch(from, diffViews(from, { q: after }))).toEqual({ q: after });
    }
  });
});
