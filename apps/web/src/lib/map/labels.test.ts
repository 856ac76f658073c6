import { describe, expect, it } from 'vitest';
import type { BoardArea } from './board.ts';
import { COMPACT_PX, counterSize, labelRoom, nameFits } from './labels.ts';

const area = (id: string, x: number, y: number): BoardArea => ({
  id,
  name: id,
  kind: 'land',
  province: null,
  city: null,
  desert: false,
  startPosition: null,
  path: '',
  label: [x, y],
});

describe('map labels and counters by zoom', () => {
  it('gives each area the distance to its nearest neighbour', () => {
    const room = labelRoom([area('a', 0, 0), area('b', 30, 40), area('c', 300, 0)]);
    expect(room.get('a')).toBe(50);
    expect(room.get('b')).toBe(50);
    expect(room.get('c')).toBeCloseTo(Math.hypot(270, 40));
  });

  it('prints a name only where it fits, and more names as the map zooms in', () => {
    // 'Hermunduri' needs about 59 px; an area 50 units from its neighbour gives 85 units of room.
    expect(nameFits('Hermunduri', 50, 0.43)).toBe(false);
    expect(nameFits('Hermunduri', 50, 1)).toBe(true);
    expect(nameFits('Rome', 50, 0.43)).toBe(true);
  });

  it('keeps counters readable at the first zoom and lets them grow when zoomed in', () => {
    // The whole board on a laptop (k ≈ 0.43): 24 px, printed in the compact way.
    expect(counterSize(0.43) * 0.43).toBeCloseTo(24);
    expect(counterSize(0.43) * 0.43).toBeLessThan(COMPACT_PX);
    expect(counterSize(1) * 1).toBe(26);
    expect(counterSize(3) * 3).toBe(30);
    // Never below 10 board units, nor above 56 (a whole-map view on a phone keeps them apart).
    expect(counterSize(0.1)).toBe(56);
    expect(counterSize(100)).toBe(10);
  });
});
