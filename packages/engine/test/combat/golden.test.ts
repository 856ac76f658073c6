/** Part D combat golden cases kept as data (test/combat/golden/*.json), each citing its section. */
import { describe, expect, it } from 'vitest';
import { attackHalfPoints, defenceHalfPoints, NO_SHIFTS, oddsColumn } from '../../src/combat/odds.ts';
import { neutralGarrisonStrength } from '../../src/model/neutral-garrison.ts';
import { isLegalStack, type StackKind } from '../../src/model/stacking.ts';
import { CRT, crtColumnIndex, crtResult } from '../../src/tables/crt.ts';
import neutral from './golden/neutral.json';
import odds from './golden/odds.json';
import stacking from './golden/stacking.json';

describe(`${stacking.case} stacking legality (${stacking.source})`, () => {
  for (const row of stacking.stacks) {
    it(`${row.book}: [${row.stack.join(', ')}] → ${row.legal ? 'legal' : 'illegal'}`, () => {
      expect(isLegalStack(row.stack.map((kind) => ({ kind: kind as StackKind })))).toBe(row.legal);
    });
  }
});

describe(`odds and column shifts (${odds.source})`, () => {
  for (const c of odds.cases) {
    it(`${c.case} → ${c.column}`, () => {
      const attack = 'attackers' in c && c.attackers ? attackHalfPoints(c.attackers) : (c.attackHalf ?? 0);
      const defence = 'defenders' in c && c.defenders ? defenceHalfPoints(c.defenders) : (c.defenceHalf ?? 0);
      if ('attackHalfPoints' in c) expect(attack).toBe(c.attackHalfPoints);
      const shifts = {
        ...NO_SHIFTS,
        attackerLeader: 'attackerLeader' in c ? (c.attackerLeader ?? 0) : 0,
        defenderLeader: 'defenderLeader' in c ? (c.defenderLeader ?? 0) : 0,
        fortified: 'fortified' in c && c.fortified === true,
      };
      const result = oddsColumn(CRT, attack, defence, shifts, 'useLowest');
      expect(result.kind === 'column' && result.id).toBe(c.column);
      if ('roll' in c && c.roll !== undefined)
        expect(crtResult(CRT, crtColumnIndex(CRT, c.column), c.roll)).toBe(c.result);
    });
  }
});

describe(`${neutral.case} neutral garrison strengths (${neutral.source})`, () => {
  for (const g of neutral.garrisons) {
    it(`${g.where} → ${g.strength}`, () => expect(neutralGarrisonStrength(g.city)).toBe(g.strength));
  }
});
