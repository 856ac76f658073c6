import { describe, expect, it } from 'vitest';
import { applyPatch } from './patch.ts';

describe('applyPatch', () => {
  const doc = Object.freeze({
    turn: 1,
    units: Object.freeze({ u1: Object.freeze({ area: 'a' }) }),
    order: Object.freeze(['p1', 'p2']),
  });

  it('adds, replaces and removes without touching the original', () => {
    const next = applyPatch(doc, [
      { op: 'replace', path: '/turn', value: 2 },
      { op: 'add', path: '/units/u2', value: { area: 'b' } },
      { op: 'replace', path: '/units/u1/area', value: 'c' },
      { op: 'remove', path: '/order/0' },
      { op: 'add', path: '/order/-', value: 'p3' },
    ]);
    expect(next).toEqual({ turn: 2, units: { u1: { area: 'c' }, u2: { area: 'b' } }, order: ['p2', 'p3'] });
    expect(doc.turn).toBe(1);
    expect(doc.units.u1.area).toBe('a');
  });

  it('shares untouched branches (cheap for Svelte to diff)', () => {
    const next = applyPatch(doc, [{ op: 'replace', path: '/turn', value: 3 }]);
    expect(next.units).toBe(doc.units);
  });

  it('decodes ~1 and ~0 in keys', () => {
    const next = applyPatch({ a: {} as Record<string, number> }, [
      { op: 'add', path: '/a/x~1y~0z', value: 1 },
    ]);
    expect(next.a['x/y~z']).toBe(1);
  });

  it('moves a value', () => {
    const next = applyPatch({ a: { x: 1 }, b: {} as Record<string, unknown> }, [
      { op: 'move', from: '/a/x', path: '/b/y' },
    ]);
    expect(next).toEqual({ a: {}, b: { y: 1 } });
  });
});
