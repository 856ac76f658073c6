import { describe, expect, it } from 'vitest';
import { isLegalStack, mayJoin, type StackPiece, stackViolation } from '../../src/model/stacking.ts';
import type { UnitKind } from '../../src/model/units.ts';

const u = (kind: UnitKind | 'neutralGarrison', extra: Partial<StackPiece> = {}): StackPiece => ({
  kind,
  ...extra,
});

// D-25 itself is data: golden/stacking.json (run by golden.test.ts).

describe('stacking details (6, B.6)', () => {
  it('allows the inverted pair, and only two inverted tribes alone (9.1)', () => {
    expect(isLegalStack([u('tribe', { inverted: true }), u('tribe', { inverted: true })])).toBe(true);
    expect(isLegalStack([u('tribe', { inverted: true }), u('tribe')])).toBe(false);
    expect(
      stackViolation([
        u('tribe', { inverted: true }),
        u('tribe', { inverted: true }),
        u('tribe', { inverted: true }),
      ]),
    ).toBe('stack/notAlone');
  });

  it('keeps neutral garrisons alone (14.1)', () => {
    expect(stackViolation([u('neutralGarrison'), u('bow')])).toBe('stack/notAlone');
  });

  it('names the violation', () => {
    expect(stackViolation([u('infantry'), u('cavalry')])).toBe('stack/twoBig');
    expect(stackViolation([u('bow'), u('bow'), u('ship')])).toBe('stack/tooMany');
    expect(stackViolation([u('bow', { owner: 'a' }), u('ship', { owner: 'b' })])).toBe('stack/unfriendly');
    expect(stackViolation([u('bow', { owner: 'a' }), u('ship', { owner: 'a' })])).toBeNull();
  });

  it('mayJoin checks the stack the newcomer would make', () => {
    expect(mayJoin([u('infantry')], u('bow'))).toBe(true);
    expect(mayJoin([u('infantry'), u('ship')], u('bow'))).toBe(false);
    expect(mayJoin([], u('tribe'))).toBe(true);
  });
});
