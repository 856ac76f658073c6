/** A hand-made coast for the naval cases (5.2): two seas, a two-coast bay, a white arrow. */
import type { MapInput } from '../../src/index.ts';
import { scenario } from '../helpers/scenario.ts';

/*
 *   west ── east ── bay(two coasts: "north" on the sea Nord, "south" on the sea Sud) ── port
 *   Nord (sea) touches west, east, bay;  Sud (sea) touches bay, port;  Nord ⇢ Far by a white arrow;
 *   Far touches isle.  inland borders west by land only.
 */
const land = (id: string, coastal: boolean, coasts?: { id: string; seas: string[] }[]) => ({
  id,
  name: id,
  kind: 'land' as const,
  province: 'p',
  city: null,
  desert: false,
  coastal,
  insideEmpire: true,
  garrisonSymbol: false,
  startPosition: null,
  aMarked: false,
  seaCrossingFor: [],
  ...(coasts ? { coasts } : {}),
});
const sea = (id: string) => ({ ...land(id, false), kind: 'sea' as const, province: null });
const edge = (a: string, b: string, kind: 'land' | 'coast' | 'sea' | 'whiteArrow', shoreline = false) => ({
  a,
  b,
  kind,
  river: false,
  mountain: false,
  road: false,
  redArrow: false,
  whiteArrow: kind === 'whiteArrow',
  imperialBoundary: false,
  shoreline,
});
export const NAVAL_MAP: MapInput = {
  version: 'naval-fixture',
  provinces: [{ id: 'p', name: 'P' }],
  areas: [
    land('west', true),
    land('east', true),
    land('bay', true, [
      { id: 'bay-north', seas: ['nord'] },
      { id: 'bay-south', seas: ['sud'] },
    ]),
    land('port', true),
    land('inland', false),
    land('isle', true),
    sea('nord'),
    sea('sud'),
    sea('far'),
  ],
  edges: [
    edge('west', 'east', 'land', true),
    edge('east', 'bay', 'land', true),
    edge('bay', 'port', 'land', false),
    edge('west', 'inland', 'land'),
    edge('west', 'nord', 'coast'),
    edge('east', 'nord', 'coast'),
    edge('bay', 'nord', 'coast'),
    edge('bay', 'sud', 'coast'),
    edge('port', 'sud', 'coast'),
    edge('isle', 'far', 'coast'),
    edge('nord', 'far', 'whiteArrow'),
  ],
};

/** Two kingdoms on that coast, 'a' (GERMAN 1) and 'b' (SLAV 1), and no neutral garrison unless given. */
export const navalKingdoms = (spec: Omit<Parameters<typeof scenario>[0], 'map' | 'players'>) =>
  scenario({
    map: NAVAL_MAP,
    players: [
      { id: 'a', position: 'GERMAN 1', stage: 'kingdom' },
      { id: 'b', position: 'SLAV 1', stage: 'kingdom' },
    ],
    neutrals: {},
    ...spec,
  });
