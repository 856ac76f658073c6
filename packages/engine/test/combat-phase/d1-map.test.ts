import { loadMap } from '@bke/map';
import { describe, expect, it } from 'vitest';
import { applyCombatOrder } from '../../src/combat-phase/phase.ts';
import { type AreaId, asUnitId } from '../../src/model/ids.ts';
import { indexMap } from '../../src/model/map-index.ts';
import { BLUE, fixture, RED } from './fixture.ts';

// D-1 Combat odds, halving and CRT lookup — BOOK (7.1), played through the combat phase on the shipped
// map: 3-3 and 2-3 attack from a plain border, 3-4 and 2-3 across a mountain range, against a 4-2.
describe('D-1 through the combat phase on the shipped map (7.1)', () => {
  const map = indexMap(loadMap());
  const site = map.areaIds
    .map((target) => {
      const links = map.landLinks(target);
      const mountain = links.find((l) => l.mountain && !l.river && !l.redArrow);
      const plain = links.find((l) => !l.mountain && !l.river && !l.redArrow && l.to !== mountain?.to);
      return mountain && plain ? { target, across: mountain.to, plain: plain.to } : null;
    })
    .find((s): s is { target: AreaId; across: AreaId; plain: AreaId } => s !== null);

  it('7½ against 4 is fought on 3-2, and 5 + 4 gives DR1', () => {
    expect(site).toBeDefined();
    const { target, across, plain } = site!;
    const { ctx, state } = fixture({
      map,
      units: [
        ['inf', RED, 'barbarianInfantry', plain],
        ['bow2', RED, 'bow', plain],
        ['horse', RED, 'barbarianHorse', across],
        ['bow1', RED, 'bow', across],
        ['foe', BLUE, 'infantry', target],
      ],
      dice: [5, 4],
    });
    const r = applyCombatOrder(ctx, state, RED, {
      type: 'combatAttack',
      target,
      attackers: ['inf', 'bow2', 'horse', 'bow1'].map(asUnitId),
    });
    expect(r.ok && r.value.events[0]).toMatchObject({
      attack: 15,
      defence: 8,
      odds: '3-2',
      dice: [5, 4],
      result: 'DR1',
    });
  });
});
