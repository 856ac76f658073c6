import { describe, expect, it } from 'vitest';
import { followPatch, isLaterStatus } from './view-follower.ts';

const held = { turn: 3, units: { u1: { area: 'a1' } } };

describe('following a view by its patches', () => {
  it('applies the next version and leaves the copy held untouched', () => {
    const step = followPatch(held, 7, { from: 7, to: 8, ops: [{ op: 'replace', path: '/turn', value: 4 }] });
    expect(step).toEqual({ kind: 'applied', version: 8, view: { ...held, turn: 4 } });
    expect(held.turn).toBe(3);
  });

  it('tells an older change, the one held, a missed one and one that does not fit apart', () => {
    const ops = [{ op: 'replace', path: '/turn', value: 4 }];
    expect(followPatch(held, 7, { from: 5, to: 6, ops }).kind).toBe('behind');
    expect(followPatch(held, 7, { from: 6, to: 7, ops }).kind).toBe('held');
    expect(followPatch(held, 7, { from: 8, to: 9, ops }).kind).toBe('gap');
    expect(
      followPatch(held, 7, { from: 7, to: 8, ops: [{ op: 'replace', path: '/units/u9/area', value: 'a2' }] })
        .kind,
    ).toBe('drift');
  });

  it('keeps a status unless the one held is of a later version', () => {
    expect(isLaterStatus(null, { version: 2 })).toBe(true);
    expect(isLaterStatus({ version: 2 }, { version: 2 })).toBe(true);
    expect(isLaterStatus({ version: 3 }, { version: 2 })).toBe(false);
  });
});
