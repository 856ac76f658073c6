/**
 * Room around the start positions (9.2 tribal growth, 14.2.7): a horde must be able to grow
 * to 16 tribes, one per area, without entering another homeland or a desert, and every start position
 * has at least 8 land areas within 2 moves.
 */
import { describe, expect, it } from 'vitest';
import { indexMap, loadMap } from '../src/index.ts';
import { distances } from './helpers.ts';

const index = indexMap(loadMap());
const BASE = ['SLAV 1', 'SLAV 2', 'HUN', 'GERMAN 1', 'GERMAN 2', 'TURK', 'VIKING', 'PICT'] as const;
const homeland = (start: string) => index.area(index.startLabels.get(start as never) ?? '').province ?? '';
const homelands = new Set(BASE.map(homeland));

describe('room around start positions', () => {
  it('the eight base positions have eight different homeland provinces', () => {
    expect(homelands.size).toBe(8);
  });

  for (const start of BASE) {
    it(`${start}: 16+ areas for tribes without entering another homeland or a desert`, () => {
      const own = homeland(start);
      const from = index.startLabels.get(start) ?? '';
      const reach = distances(from, index.landNeighbours, (id) => {
        const a = index.area(id);
        return !a.desert && (a.province === own || !homelands.has(a.province ?? ''));
      });
      expect(reach.size).toBeGreaterThanOrEqual(16);
    });

    it(`${start}: at least 8 land areas within 2 moves`, () => {
      const within = [...distances(index.startLabels.get(start) ?? '', index.landNeighbours).values()];
      expect(within.filter((d) => d >= 1 && d <= 2).length).toBeGreaterThanOrEqual(8);
    });
  }

  it('ARAB and AFRICAN "A" areas let two tribes enter side by side (13.2.2)', () => {
    for (const start of ['ARAB', 'AFRICAN'] as const) {
      const areas = index.startAreas.get(start) ?? [];
      const adjacentPair = areas.some((a) =>
        areas.some((b) => a !== b && index.landNeighbours(a).includes(b)),
      );
      expect(adjacentPair, start).toBe(true);
    }
  });
});
