/** A hand-made four-area board and a small world view for component tests. */

import type { GameView, ViewPlayer } from '@bke/protocol';
import type { BoardMap } from '../lib/map/board.ts';

const square = (x: number, y: number) => `M${x} ${y}h100v100h-100z`;

/**
 * A shape a test spells out only as far as the code under test reads it, taken as the full type
 * (the engine's types demand every field; the ones left out are not what the test is about).
 */
export const given = <T>(partial: unknown): T => partial as T;

export const FIXTURE_MAP: BoardMap = {
  version: 'fixture',
  view: { width: 300, height: 200 },
  provinces: [{ id: 'gallia', name: 'Gallia' }],
  areas: [
    {
      id: 'lutetia',
      name: 'Lutetia',
      kind: 'land',
      province: 'gallia',
      city: { name: 'Lutetia', tax: 2, optional: false },
      desert: false,
      startPosition: null,
      path: square(0, 0),
      label: [50, 50],
    },
    {
      id: 'belgica',
      name: 'Belgica',
      kind: 'land',
      province: 'gallia',
      city: null,
      desert: false,
      startPosition: 'GERMAN 1',
      path: square(100, 0),
      label: [150, 50],
    },
    {
      id: 'rhenus',
      name: 'Rhenus',
      kind: 'land',
      province: null,
      city: { name: 'Colonia', tax: 3, optional: false },
      desert: false,
      startPosition: null,
      path: square(200, 0),
      label: [250, 50],
    },
    {
      id: 'mare',
      name: 'Mare Nostrum',
      kind: 'sea',
      province: null,
      city: null,
      desert: false,
      startPosition: null,
      path: 'M0 100h300v100h-300z',
      label: [150, 150],
    },
  ],
  edges: [
    { a: 'lutetia', b: 'belgica', kind: 'land', road: true, redArrow: false, whiteArrow: false },
    { a: 'belgica', b: 'rhenus', kind: 'land', road: false, redArrow: false, whiteArrow: false },
  ],
};

export const player = (
  id: string,
  name: string,
  colour: ViewPlayer['colour'],
  extra: Partial<ViewPlayer> = {},
): ViewPlayer => ({
  id,
  name,
  seat: 0,
  colour,
  joinedTurn: 1,
  status: 'active',
  cycle: given({ number: 1, position: 'GERMAN 1', stage: 'barbarian', startedTurn: 1, vp: 0 }),
  finished: { count: 0, bestVp: 0, totalVp: 0 },
  money: 0,
  turnsPlayed: 1,
  capital: null,
  abandoning: false,
  ...extra,
});

export const FIXTURE_VIEW: GameView = given<GameView>({
  turn: 2,
  step: { kind: 'playerTurn', player: 'p1', phase: 'movement', moved: [] },
  players: [player('p1', 'Alaric', 'red'), player('p2', 'Brenna', 'blue')],
  order: ['p1', 'p2'],
  units: {
    u1: { id: 'u1', owner: 'p1', kind: 'tribe', area: 'belgica' },
    u2: { id: 'u2', owner: 'p1', kind: 'tribe', area: 'belgica' },
    u3: { id: 'u3', owner: 'p1', kind: 'barbarianInfantry', area: 'belgica' },
    u4: { id: 'u4', owner: 'p2', kind: 'tribe', area: 'rhenus' },
  },
  neutrals: { lutetia: { strength: 2 } },
  cities: { lutetia: { owner: null, everOwned: false }, rhenus: { owner: 'p2', everOwned: true } },
  markers: [{ area: 'rhenus', digit: 7, pillager: 'p1', turn: 2 }],
  version: 12,
  viewer: 'p1',
  waitingFor: ['p1'],
  canUndo: [],
  standings: [
    { player: 'p1', bestCycle: 0, totalVp: 0, turnsPlayed: 1, average: 0 },
    { player: 'p2', bestCycle: 0, totalVp: 0, turnsPlayed: 1, average: 0 },
  ],
});
