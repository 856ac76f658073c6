import type { LegalOrder } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { clickArea, clickUnit, highlightOf, NONE } from './choices.ts';

const units = { u1: { area: 'belgica' }, u2: { area: 'belgica' }, t3: { area: 'lutetia' } };
const legal: LegalOrder[] = [
  {
    type: 'move',
    unit: 'u1',
    from: 'belgica',
    destinations: [
      { to: 'rhenus', path: ['rhenus'] },
      { to: 'lutetia', path: ['lutetia'] },
      { to: 'far', path: ['lutetia', 'far'] },
    ],
  },
  { type: 'combine', tribes: ['u2', 't3'], areas: ['belgica', 'lutetia'] },
  { type: 'endPhase' },
];

describe('choices: legal orders in, intents out', () => {
  it('lights up only units that have a legal order', () => {
    const h = highlightOf(legal, NONE, units);
    expect([...(h.pickable ?? [])].sort()).toEqual(['t3', 'u1', 'u2']);
  });

  it('clicking a unit lights its destinations; hovering one shows its path', () => {
    const picked = clickUnit(legal, NONE, 'u1', 'belgica');
    expect(picked.selection).toEqual({ kind: 'unit', unit: 'u1', from: 'belgica', hover: null });
    const h = highlightOf(legal, { kind: 'unit', unit: 'u1', from: 'belgica', hover: 'far' }, units);
    expect([...(h.destinations ?? [])].sort()).toEqual(['far', 'lutetia', 'rhenus']);
    expect(h.route).toEqual({ from: 'belgica', path: ['lutetia', 'far'] });
  });

  it('clicking a lit destination sends the move with the path the server gave', () => {
    const r = clickArea(legal, { kind: 'unit', unit: 'u1', from: 'belgica', hover: null }, 'far');
    expect(r.order).toEqual({ type: 'move', unit: 'u1', path: ['lutetia', 'far'] });
    expect(r.selection).toEqual(NONE);
  });

  it('clicking an unlit area sends nothing and drops the selection', () => {
    const r = clickArea(legal, { kind: 'unit', unit: 'u1', from: 'belgica', hover: null }, 'nowhere');
    expect(r.order).toBeUndefined();
    expect(r.selection).toEqual(NONE);
  });

  it('combines two tribes: first, partner, then the meeting area', () => {
    const first = clickUnit(legal, NONE, 'u2', 'belgica');
    expect(first.selection).toEqual({ kind: 'combine', first: 'u2', second: null });
    const second = clickUnit(legal, first.selection, 't3', 'lutetia');
    expect(second.selection).toEqual({ kind: 'combine', first: 'u2', second: 't3' });
    expect([...(highlightOf(legal, second.selection, units).destinations ?? [])].sort()).toEqual([
      'belgica',
      'lutetia',
    ]);
    const done = clickArea(legal, second.selection, 'lutetia');
    expect(done.order).toEqual({ type: 'combine', tribes: ['u2', 't3'], area: 'lutetia' });
  });

  it('chooses a start area from the position the area belongs to', () => {
    const starts: LegalOrder[] = [
      { type: 'chooseStart', position: 'HUN', areas: ['alani', 'roxolani'] },
      { type: 'chooseStart', position: 'TURK', areas: ['rhymmi'] },
    ];
    const sel = clickArea(starts, NONE, 'roxolani').selection;
    expect(sel).toEqual({ kind: 'start', position: 'HUN' });
    expect(clickArea(starts, sel, 'roxolani').order).toEqual({
      type: 'chooseStart',
      position: 'HUN',
      area: 'roxolani',
    });
  });

  it('entry: the second of two areas sends both', () => {
    const entry: LegalOrder[] = [{ type: 'placeEntryTribes', areas: ['a1', 'a2', 'a3'] }];
    const one = clickArea(entry, NONE, 'a1');
    const two = clickArea(entry, one.selection, 'a3');
    expect(two.order).toEqual({ type: 'placeEntryTribes', areas: ['a1', 'a3'] });
  });
});

describe('ships', () => {
  const sea: LegalOrder[] = [
    { type: 'shipMove', ship: 's1', path: ['mare'], cargo: [] },
    { type: 'shipMove', ship: 's1', path: ['mare', 'rhenus'], cargo: [] },
    { type: 'shipMove', ship: 's1', path: ['mare', 'rhenus'], cargo: ['u1'] },
  ];
  const at = { s1: { area: 'lutetia' }, u1: { area: 'lutetia' } };

  it("lights a ship's harbours for the cargo chosen, and sails with it", () => {
    const picked = clickUnit(sea, NONE, 's1', 'lutetia').selection;
    expect([...(highlightOf(sea, picked, at).destinations ?? [])].sort()).toEqual(['mare', 'rhenus']);
    const loaded = { kind: 'unit' as const, unit: 's1', from: 'lutetia', hover: 'rhenus', cargo: ['u1'] };
    const h = highlightOf(sea, loaded, at);
    expect([...(h.destinations ?? [])]).toEqual(['rhenus']);
    expect(h.route).toEqual({ from: 'lutetia', path: ['mare', 'rhenus'] });
    expect(clickArea(sea, loaded, 'rhenus').order).toEqual({
      type: 'shipMove',
      ship: 's1',
      path: ['mare', 'rhenus'],
      cargo: ['u1'],
    });
  });
});

describe('choices the rules ask for, on the map (9.3.4, 7.2)', () => {
  it('a group to keep is chosen by clicking any of its areas', () => {
    const keep: LegalOrder[] = [
      { type: 'keepGroup', area: 'a1', group: ['a1', 'a2'] },
      { type: 'keepGroup', area: 'b1', group: ['b1'] },
    ];
    expect([...(highlightOf(keep, NONE, {}).selectable ?? [])].sort()).toEqual(['a1', 'a2', 'b1']);
    expect(clickArea(keep, NONE, 'a2').order).toEqual({ type: 'keepGroup', area: 'a1' });
  });

  it('an advance or a retreat end lit on the map is that unit’s order; two units there leave it to the list', () => {
    const after: LegalOrder[] = [
      { type: 'combatAdvance', unit: 'u1', from: 'x', to: ['far', 'near'], pursuit: false },
      { type: 'combatAdvance', unit: 'u2', from: 'x', to: ['near'], pursuit: false },
    ];
    expect(clickArea(after, NONE, 'far').order).toEqual({ type: 'combatAdvance', unit: 'u1', to: 'far' });
    expect(clickArea(after, NONE, 'near').order).toBeUndefined();
    const back: LegalOrder[] = [
      { type: 'combatRetreat', unit: 'u3', from: 'x', paths: [['y', 'z'], ['w']], eliminated: false },
    ];
    expect(highlightOf(back, NONE, {}).selectable).toEqual(new Set(['z', 'w']));
    expect(clickArea(back, NONE, 'z').order).toEqual({ type: 'combatRetreat', unit: 'u3', path: ['y', 'z'] });
  });

  it('tribal unrest (9.3.5): counters on the map are picked and put back, nothing is sent until confirmed', () => {
    const unrest: LegalOrder[] = [{ type: 'removeUnits', count: 2, candidates: ['u1', 'u2', 't3'] }];
    const h = highlightOf(unrest, NONE, units);
    expect([...(h.pickable ?? [])].sort()).toEqual(['t3', 'u1', 'u2']);
    const one = clickUnit(unrest, NONE, 'u1', 'belgica');
    expect(one).toEqual({ selection: { kind: 'remove', units: ['u1'] } });
    const two = clickUnit(unrest, one.selection, 't3', 'lutetia');
    expect(two.selection).toEqual({ kind: 'remove', units: ['u1', 't3'] });
    expect(two.order).toBeUndefined();
    expect([...(highlightOf(unrest, two.selection, units).selectedUnits ?? [])]).toEqual(['u1', 't3']);
    // A second click keeps the unit; a click on the map's ground keeps the picks.
    expect(clickUnit(unrest, two.selection, 'u1', 'belgica').selection).toEqual({
      kind: 'remove',
      units: ['t3'],
    });
    expect(clickArea(unrest, two.selection, 'rhenus').selection).toBe(two.selection);
  });
});
