/**
 * What the board shows, derived from the map geometry and a world view: the stacks per area,
 * who occupies or owns each area, and the markers. Display only — no rule is decided here.
 */
import type { GameView, ViewPlayer, ViewUnit } from '@bke/protocol';

/** The part of @bke/map's MapData the client draws (packages/map/src/schema.ts). */
export interface BoardArea {
  readonly id: string;
  readonly name: string;
  readonly kind: 'land' | 'sea';
  readonly province: string | null;
  readonly city: { readonly name: string; readonly tax: number; readonly optional: boolean } | null;
  readonly desert: boolean;
  readonly startPosition: string | null;
  readonly path: string;
  readonly label: readonly [number, number];
}

interface BoardEdge {
  readonly a: string;
  readonly b: string;
  readonly kind: string;
  readonly road: boolean;
  readonly redArrow: boolean;
  readonly whiteArrow: boolean;
}

export interface BoardMap {
  readonly version: string;
  readonly view: { readonly width: number; readonly height: number };
  readonly provinces: readonly { readonly id: string; readonly name: string }[];
  readonly areas: readonly BoardArea[];
  readonly edges: readonly BoardEdge[];
  readonly decor?: {
    readonly islands: string;
    readonly rivers: readonly { readonly name: string; readonly path: string }[];
    readonly mountains: readonly { readonly name: string; readonly path: string }[];
    readonly imperialBoundary: string;
    readonly provinceBoundaries: string;
  };
}

/** Units of one owner and kind in one area: drawn as one counter with a count. */
export interface CounterGroup {
  readonly owner: string;
  /** Whose colours the counter wears: the owner, or for mercenaries the barbarian who hired them out (AMBIG-21). */
  readonly colourOf: string;
  readonly kind: string;
  readonly units: readonly ViewUnit[];
  readonly inverted: boolean;
}

export interface AreaStack {
  readonly area: string;
  readonly groups: readonly CounterGroup[];
}

const KIND_ORDER = [
  'leader',
  'elite',
  'cavalry',
  'barbarianHorse',
  'infantry',
  'barbarianInfantry',
  'horseBow',
  'bow',
  'garrison',
  'ship',
  'tribe',
];
const kindRank = (k: string) => {
  const i = KIND_ORDER.indexOf(k);
  return i < 0 ? KIND_ORDER.length : i;
};

/**
 * Leased units (13.4) in the view: unit → the barbarian who owns them. While a lease runs its
 * units obey the hirer (their `owner` in the view) but keep their owner's colours (AMBIG-21).
 */
export function mercenaryColours(view: {
  readonly realm?: {
    readonly leases?: readonly { owner: string; units: readonly string[]; status: string }[];
  };
}): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of view.realm?.leases ?? [])
    if (l.status === 'active' || l.status === 'ending') for (const u of l.units) out.set(u, l.owner);
  return out;
}

/** Group a view's units per area, then per owner and kind (inverted tribes and mercenaries apart). */
export function stacksOf(
  units: Readonly<Record<string, ViewUnit>>,
  colours: ReadonlyMap<string, string> = new Map(),
): Map<string, AreaStack> {
  const byArea = new Map<string, Map<string, ViewUnit[]>>();
  for (const u of Object.values(units)) {
    const key = `${u.owner}|${u.kind}|${u.inverted ? 'inv' : ''}|${colours.get(u.id) ?? ''}`;
    const groups = byArea.get(u.area) ?? new Map<string, ViewUnit[]>();
    byArea.set(u.area, groups);
    const g = groups.get(key);
    if (g) g.push(u);
    else groups.set(key, [u]);
  }
  const out = new Map<string, AreaStack>();
  for (const [area, groups] of byArea) {
    const list: CounterGroup[] = [...groups.values()].map((us) => {
      const first = us[0] as ViewUnit;
      return {
        owner: first.owner,
        colourOf: colours.get(first.id) ?? first.owner,
        kind: first.kind,
        inverted: Boolean(first.inverted),
        units: us.sort((a, b) => (a.id < b.id ? -1 : 1)),
      };
    });
    list.sort((a, b) =>
      a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : kindRank(a.kind) - kindRank(b.kind),
    );
    out.set(area, { area, groups: list });
  }
  return out;
}

/**
 * Whose colour an area is tinted with: the player with units there, else the city's owner as
 * the view reports it. Several players in one area (mid-combat) leave it untinted.
 */
export function tintOf(area: string, stack: AreaStack | undefined, view: GameView): string | null {
  if (stack) {
    const owners = new Set(stack.groups.map((g) => g.owner));
    if (owners.size === 1) return [...owners][0] ?? null;
    if (owners.size > 1) return null;
  }
  return view.cities[area]?.owner ?? null;
}

export function playerIndex(view: GameView): Map<string, ViewPlayer> {
  return new Map(view.players.map((p) => [p.id, p]));
}

/** Centre points of the areas on a path, for drawing it as a line. */
export function pathPoints(map: BoardMap, from: string, path: readonly string[]): [number, number][] {
  const byId = new Map(map.areas.map((a) => [a.id, a]));
  const pts: [number, number][] = [];
  for (const id of [from, ...path]) {
    const a = byId.get(id);
    if (a) pts.push([a.label[0], a.label[1]]);
  }
  return pts;
}

/** What the map lights up; given by the page from the legal orders (lib/world/choices.ts). */
export interface Highlight {
  /** Areas the player may click now (start areas, cities to pillage, …). */
  selectable?: ReadonlySet<string>;
  /** Destinations of the selected unit. */
  destinations?: ReadonlySet<string>;
  /** Destinations the engine says would cost units (drawn in a warning colour). */
  costly?: ReadonlySet<string>;
  /** The route to the hovered or chosen destination. */
  route?: { from: string; path: readonly string[] } | null;
  /** Units the player may pick. */
  pickable?: ReadonlySet<string>;
  selectedUnits?: ReadonlySet<string>;
  selectedArea?: string | null;
}
