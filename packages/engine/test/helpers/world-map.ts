/**
 * A small "world" fixture for the fuzzer and determinism tests: 7×9 land areas with barbarian
 * start labels around the edge, an empire of cities in the middle, a road, a river, a red
 * arrow, deserts, marked seas and "A" areas, so every part-1 rule has something to bite on.
 */
import { cell, gridMap } from './fixture-map.ts';

const outside: string[] = [];
for (let r = 0; r < 7; r++)
  for (let c = 0; c < 9; c++) if (r === 0 || r === 6 || c === 0 || c === 8) outside.push(cell(r, c));

export const WORLD = gridMap({
  rows: 7,
  cols: 9,
  outside,
  starts: {
    r0c0: 'PICT',
    r0c4: 'VIKING',
    r0c8: 'SLAV 1',
    r3c8: 'HUN',
    r6c8: 'TURK',
    r6c4: 'ARAB',
    r6c0: 'AFRICAN',
    r3c0: 'GERMAN 1',
    r0c2: 'GERMAN 2',
    r0c6: 'SLAV 2',
  },
  cities: {
    r2c2: { tax: 2 },
    r2c4: { tax: 3 },
    r2c6: { tax: 1 },
    r3c3: { tax: 2 },
    r3c5: { tax: 1 },
    r4c2: { tax: 1 },
    r4c4: { tax: 4, strength: 4 },
    r4c6: { tax: 2 },
    r1c1: { tax: 1, optional: true },
  },
  deserts: ['r5c4', 'r5c5', 'r6c5'],
  roads: [
    ['r3c0', 'r3c1'],
    ['r3c1', 'r3c2'],
    ['r3c2', 'r3c3'],
    ['r3c3', 'r3c4'],
    ['r3c4', 'r3c5'],
    ['r3c5', 'r3c6'],
  ],
  rivers: [
    ['r1c3', 'r2c3'],
    ['r1c4', 'r2c4'],
  ],
  redArrows: [['r0c0', 'r2c0']],
  seas: {
    north: { shores: ['r0c1', 'r0c2', 'r0c3', 'r0c4', 'r0c5'], marks: ['VIKING', 'PICT'] },
    south: { shores: ['r6c1', 'r6c2', 'r6c3'], marks: ['ARAB'] },
  },
  garrisonSymbols: ['r1c1', 'r5c7', 'r1c7'],
  aMarked: ['r6c3', 'r6c4', 'r5c3', 'r6c0', 'r5c0'],
  provinces: { r6c3: 'arabia', r6c4: 'arabia', r5c3: 'arabia', r6c0: 'mauretania', r5c0: 'mauretania' },
});
