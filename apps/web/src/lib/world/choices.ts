/**
 * From the legal orders the server sent to what the map lights up, and from a click back to the
 * order the player means (destinations in, intents out). Nothing here knows a rule; it
 * only reads the list of legal orders.
 */

import type { LegalOrder, Order, StartPosition } from '@bke/protocol';
import type { Highlight } from '../map/board.ts';

export type Selection =
  | { readonly kind: 'none' }
  /** A unit picked in the movement phase: its destinations are lit. */
  | {
      readonly kind: 'unit';
      readonly unit: string;
      readonly from: string;
      readonly hover: string | null;
      /** For a ship: the units it takes along (one of the cargo sets the server offered). */
      readonly cargo?: readonly string[];
    }
  /** The first tribe of a combination picked: partners and meeting areas are lit. */
  | { readonly kind: 'combine'; readonly first: string; readonly second: string | null }
  /** A start position's areas are lit. */
  | { readonly kind: 'start'; readonly position: StartPosition }
  /** Arab / African entry: two areas to pick. */
  | { readonly kind: 'entry'; readonly areas: readonly string[] }
  /** Units picked so far, on the map or in the list, to lose to tribal unrest. */
  | { readonly kind: 'remove'; readonly units: readonly string[] };

export const NONE: Selection = { kind: 'none' };

type Of<T extends LegalOrder['type']> = Extract<LegalOrder, { type: T }>;
export const ofType = <T extends LegalOrder['type']>(legal: readonly LegalOrder[], type: T): Of<T>[] =>
  legal.filter((o): o is Of<T> => o.type === type);

/** Every unit the player can act with now, whatever the order. */
function pickableUnits(legal: readonly LegalOrder[]): Set<string> {
  const out = new Set<string>();
  for (const o of legal) {
    if (o.type === 'move') out.add(o.unit);
    else if (o.type === 'split' || o.type === 'disband') out.add(o.type === 'split' ? o.tribe : o.unit);
    else if (o.type === 'combine') for (const t of o.tribes) out.add(t);
    else if (o.type === 'seaCrossing') out.add(o.tribe);
    else if (o.type === 'shipMove') out.add(o.ship);
    else if (o.type === 'removeUnits') for (const u of o.candidates) out.add(u);
  }
  return out;
}

/** The units picked to remove, with `unit` added or taken out again. */
export function toggleRemoval(sel: Selection, unit: string): Selection {
  const chosen = sel.kind === 'remove' ? sel.units : [];
  return {
    kind: 'remove',
    units: chosen.includes(unit) ? chosen.filter((u) => u !== unit) : [...chosen, unit],
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/** A ship's voyages with the chosen cargo: destination → path (the shortest the server offered). */
export function voyagesOf(
  legal: readonly LegalOrder[],
  ship: string,
  cargo: readonly string[],
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const o of ofType(legal, 'shipMove')) {
    if (o.ship !== ship || !sameSet(o.cargo, cargo)) continue;
    const to = o.path[o.path.length - 1];
    const known = to ? out.get(to) : undefined;
    if (to && (!known || known.length > o.path.length)) out.set(to, o.path);
  }
  return out;
}

/** The legal entry of a ship's voyage to `to` with this cargo (its landing flag and pick-ups). */
export function voyageEntry(
  legal: readonly LegalOrder[],
  ship: string,
  cargo: readonly string[],
  to: string,
): Of<'shipMove'> | undefined {
  const path = voyagesOf(legal, ship, cargo).get(to);
  return ofType(legal, 'shipMove').find(
    (o) => o.ship === ship && sameSet(o.cargo, cargo) && o.path.join() === path?.join(),
  );
}

/** A stop on a voyage (AMBIG-15): units taken aboard or put ashore at an area of the path. */
export interface Stop {
  readonly at: string;
  readonly load: string[];
  readonly unload: string[];
}

/**
 * The `stops` of a shipMove from the player's picks, in the order of the path: `load` maps a unit
 * to where it is picked up, `unload` a cargo unit to where it is put ashore.
 */
export function stopsOf(
  path: readonly string[],
  load: Readonly<Record<string, string>>,
  unload: Readonly<Record<string, string>>,
): Stop[] {
  const out: Stop[] = [];
  for (const at of path) {
    const l = Object.keys(load).filter((u) => load[u] === at);
    const d = Object.keys(unload).filter((u) => unload[u] === at);
    if (l.length || d.length) out.push({ at, load: l, unload: d });
  }
  return out;
}

/** The cargo sets a ship may take (the empty set first). */
export function cargoSetsOf(legal: readonly LegalOrder[], ship: string): string[][] {
  const sets: string[][] = [];
  for (const o of ofType(legal, 'shipMove')) {
    if (o.ship === ship && !sets.some((s) => sameSet(s, o.cargo))) sets.push(o.cargo);
  }
  return sets.sort((a, b) => a.length - b.length);
}

function moveOf(legal: readonly LegalOrder[], unit: string): Of<'move'> | undefined {
  return ofType(legal, 'move').find((o) => o.unit === unit);
}

/** Partners of a tribe in the legal combinations, with the areas each pair may meet in. */
function partnersOf(legal: readonly LegalOrder[], tribe: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const o of ofType(legal, 'combine')) {
    const [a, b] = o.tribes;
    if (a === tribe) out.set(b, o.areas);
    else if (b === tribe) out.set(a, o.areas);
  }
  return out;
}

export function highlightOf(
  legal: readonly LegalOrder[],
  sel: Selection,
  units: Record<string, { area: string }>,
): Highlight {
  const pickable = pickableUnits(legal);
  switch (sel.kind) {
    case 'none': {
      const selectable = new Set<string>();
      for (const o of legal) {
        if (o.type === 'chooseStart') for (const a of o.areas) selectable.add(a);
        if (o.type === 'pillage') selectable.add(o.area);
        // 9.3.4: every area of a group to keep; 7.2: where a unit may advance or end its retreat.
        if (o.type === 'keepGroup') for (const a of [o.area, ...o.group]) selectable.add(a);
        if (o.type === 'combatAdvance') for (const a of o.to) selectable.add(a);
        if (o.type === 'combatRetreat')
          for (const p of o.paths) {
            const end = p[p.length - 1];
            if (end) selectable.add(end);
          }
        if (o.type === 'placeEntryTribes') for (const a of o.areas) selectable.add(a);
      }
      return { pickable, selectable };
    }
    case 'unit': {
      const voyages = voyagesOf(legal, sel.unit, sel.cargo ?? []);
      if (voyages.size) {
        const path = sel.hover ? voyages.get(sel.hover) : undefined;
        return {
          pickable,
          destinations: new Set(voyages.keys()),
          selectedUnits: new Set([sel.unit, ...(sel.cargo ?? [])]),
          selectedArea: sel.from,
          route: path ? { from: sel.from, path } : null,
        };
      }
      const m = moveOf(legal, sel.unit);
      const dest = m?.destinations.find((d) => d.to === sel.hover);
      const crossings = ofType(legal, 'seaCrossing').filter((o) => o.tribe === sel.unit);
      const destinations = new Set([
        ...(m?.destinations.map((d) => d.to) ?? []),
        ...crossings.flatMap((c) => c.to),
      ]);
      // The engine's foreseen costs: a destination that loses units, and every risky sea crossing.
      const costly = new Set([
        ...(m?.destinations.filter((d) => d.consequences?.length).map((d) => d.to) ?? []),
        ...crossings.filter((c) => c.consequences?.length).flatMap((c) => c.to),
      ]);
      return {
        pickable,
        destinations,
        costly,
        selectedUnits: new Set([sel.unit]),
        selectedArea: sel.from,
        route: dest ? { from: sel.from, path: dest.path } : null,
      };
    }
    case 'combine': {
      const partners = partnersOf(legal, sel.first);
      const areas = sel.second ? (partners.get(sel.second) ?? []) : [];
      return {
        pickable: new Set(partners.keys()),
        selectedUnits: new Set([sel.first, ...(sel.second ? [sel.second] : [])]),
        destinations: new Set(areas),
        selectedArea: units[sel.first]?.area ?? null,
      };
    }
    case 'start': {
      const o = ofType(legal, 'chooseStart').find((x) => x.position === sel.position);
      return { destinations: new Set(o?.areas ?? []) };
    }
    case 'entry': {
      const o = ofType(legal, 'placeEntryTribes')[0];
      return { selectable: new Set(o?.areas ?? []), destinations: new Set(sel.areas) };
    }
    case 'remove':
      return { pickable, selectedUnits: new Set(sel.units) };
  }
}

export interface Outcome {
  readonly selection: Selection;
  readonly order?: Order;
}

/** A click on one of the player's units. */
export function clickUnit(legal: readonly LegalOrder[], sel: Selection, unit: string, area: string): Outcome {
  // Tribal unrest: a click picks a candidate to lose, or puts it back; the confirm sends them.
  if (ofType(legal, 'removeUnits').some((o) => o.candidates.includes(unit)))
    return { selection: toggleRemoval(sel, unit) };
  if (sel.kind === 'combine' && sel.first !== unit && partnersOf(legal, sel.first).has(unit)) {
    const areas = partnersOf(legal, sel.first).get(unit) ?? [];
    if (areas.length === 1 && areas[0]) {
      return { selection: NONE, order: { type: 'combine', tribes: [sel.first, unit], area: areas[0] } };
    }
    return { selection: { kind: 'combine', first: sel.first, second: unit } };
  }
  if (sel.kind !== 'none' && 'unit' in sel && sel.unit === unit) return { selection: NONE };
  if (sel.kind === 'combine' && sel.first === unit) return { selection: NONE };
  if (
    moveOf(legal, unit) ||
    ofType(legal, 'seaCrossing').some((o) => o.tribe === unit) ||
    ofType(legal, 'shipMove').some((o) => o.ship === unit)
  ) {
    return { selection: { kind: 'unit', unit, from: area, hover: null } };
  }
  if (partnersOf(legal, unit).size > 0) return { selection: { kind: 'combine', first: unit, second: null } };
  return { selection: sel };
}

/** A click on an area of the map. */
export function clickArea(legal: readonly LegalOrder[], sel: Selection, area: string): Outcome {
  switch (sel.kind) {
    case 'unit': {
      const voyage = voyagesOf(legal, sel.unit, sel.cargo ?? []).get(area);
      if (voyage) {
        return {
          selection: NONE,
          order: { type: 'shipMove', ship: sel.unit, path: voyage, cargo: [...(sel.cargo ?? [])] },
        };
      }
      const d = moveOf(legal, sel.unit)?.destinations.find((x) => x.to === area);
      if (d) return { selection: NONE, order: { type: 'move', unit: sel.unit, path: d.path } };
      const c = ofType(legal, 'seaCrossing').find((o) => o.tribe === sel.unit && o.to.includes(area));
      if (c)
        return { selection: NONE, order: { type: 'seaCrossing', tribe: sel.unit, sea: c.sea, to: area } };
      return { selection: NONE };
    }
    case 'combine': {
      if (!sel.second) return { selection: sel };
      const areas = partnersOf(legal, sel.first).get(sel.second) ?? [];
      if (areas.includes(area)) {
        return { selection: NONE, order: { type: 'combine', tribes: [sel.first, sel.second], area } };
      }
      return { selection: NONE };
    }
    case 'start': {
      const o = ofType(legal, 'chooseStart').find((x) => x.position === sel.position);
      if (o?.areas.includes(area))
        return { selection: NONE, order: { type: 'chooseStart', position: sel.position, area } };
      return { selection: NONE };
    }
    case 'remove':
      return { selection: sel };
    case 'entry': {
      const o = ofType(legal, 'placeEntryTribes')[0];
      if (!o?.areas.includes(area)) return { selection: sel };
      const areas = sel.areas.includes(area) ? sel.areas.filter((a) => a !== area) : [...sel.areas, area];
      const [a, b] = areas;
      if (a && b) return { selection: NONE, order: { type: 'placeEntryTribes', areas: [a, b] } };
      return { selection: { kind: 'entry', areas } };
    }
    case 'none': {
      const starts = ofType(legal, 'chooseStart').filter((o) => o.areas.includes(area));
      if (starts.length === 1 && starts[0])
        return { selection: { kind: 'start', position: starts[0].position } };
      if (ofType(legal, 'placeEntryTribes').some((o) => o.areas.includes(area))) {
        return { selection: { kind: 'entry', areas: [area] } };
      }
      const keep = ofType(legal, 'keepGroup').find((o) => o.area === area || o.group.includes(area));
      if (keep) return { selection: NONE, order: { type: 'keepGroup', area: keep.area } };
      // An area only one unit may advance into, or end its retreat in, is that unit's order; where
      // several could, the list below the map says which.
      const advances = ofType(legal, 'combatAdvance').filter((o) => o.to.includes(area));
      if (advances.length === 1 && advances[0])
        return { selection: NONE, order: { type: 'combatAdvance', unit: advances[0].unit, to: area } };
      const retreats = ofType(legal, 'combatRetreat').flatMap((o) =>
        o.paths.filter((p) => p[p.length - 1] === area).map((path) => ({ unit: o.unit, path })),
      );
      if (retreats.length && retreats.every((r) => r.unit === retreats[0]?.unit) && retreats[0])
        return {
          selection: NONE,
          order: { type: 'combatRetreat', unit: retreats[0].unit, path: retreats[0].path },
        };
      return { selection: NONE };
    }
  }
}
