import { describe, expect, it } from 'vitest';
import { isLegalStack, mayJoin, type StackPiece, stackViolation } from '../../src/stacking.ts';
import type { UnitKind } from '../../src/tables/units.ts';

const u = (kind: UnitKind | 'neutralGarrison', extra: Partial<StackPiece> = {}): StackPiece => ({
  kind,
  ...extra,
});

// D-25 Stacking legality — BOOK (6).
const D25: readonly { stack: StackPiece[]; legal: boolean; note: string }[] = [
  { note: '3-3 + 2-3', stack: [u('barbarianInfantry'), u('bow')], legal: true },
  { note: '4-2 + 1-4', stack: [u('infantry'), u('ship')], legal: true },
  { note: '1-4 + 1-4', stack: [u('ship'), u('ship')], legal: true },
  { note: '2-3 + 2-4', stack: [u('bow'), u('horseBow')], legal: true },
  { note: '3-3 + 4-2', stack: [u('barbarianInfantry'), u('infantry')], legal: false },
  { note: '5-3 + 4-2', stack: [u('elite'), u('infantry')], legal: false },
  { note: 'tribe + 2-3', stack: [u('tribe'), u('bow')], legal: false },
  { note: 'tribe + tribe', stack: [u('tribe'), u('tribe')], legal: false },
  { note: '(4)-0 + 1-4', stack: [u('garrison'), u('ship')], legal: false },
  { note: '(4)-0 + leader is fine: leaders never count', stack: [u('garrison'), u('leader')], legal: true },
  { note: '3 units', stack: [u('bow'), u('ship'), u('horseBow')], legal: false },
  {
    note: '4-2 + 1-4 + leader (markers are not units)',
    stack: [u('infantry'), u('ship'), u('leader')],
    legal: true,
  },
];

describe('D-25 stacking legality (6)', () => {
  for (const c of D25) {
    it(`${c.note} → ${c.legal ? 'legal' : 'illegal'}`, () => expect(isLegalStack(c.stack)).toBe(c.legal));
  }
});

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
