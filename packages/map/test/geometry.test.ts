/** Geometry sanity: every area can be drawn, labels fall inside the board, drawing aids exist. */
import { describe, expect, it } from 'vitest';
import { loadMap } from '../src/index.ts';

const map = loadMap();
const { width, height } = map.view;
const numbers = (path: string) => (path.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);

/** Even-odd point-in-path test for paths made of M/L/Z rings. */
function inside(path: string, x: number, y: number): boolean {
  let hit = false;
  for (const ring of path.split('Z').filter((r) => r.trim() !== '')) {
    const ns = numbers(ring);
    for (let i = 0, j = ns.length - 2; i < ns.length; j = i, i += 2) {
      const [xi, yi, xj, yj] = [ns[i], ns[i + 1], ns[j], ns[j + 1]] as [number, number, number, number];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
    }
  }
  return hit;
}

describe('geometry', () => {
  it('every area has a closed, non-empty path inside the view', () => {
    for (const a of map.areas) {
      expect(a.path.startsWith('M'), a.id).toBe(true);
      expect(a.path.endsWith('Z'), a.id).toBe(true);
      const ns = numbers(a.path);
      expect(ns.length, a.id).toBeGreaterThanOrEqual(6);
      const outside = ns.filter((n, i) => n < 0 || n > (i % 2 === 0 ? width : height));
      expect(outside, a.id).toEqual([]);
    }
  });

  it("every label lies inside the view and inside its own area's bounding box", () => {
    for (const a of map.areas) {
      const [x, y] = a.label;
      const ns = numbers(a.path);
      const xs = ns.filter((_, i) => i % 2 === 0);
      const ys = ns.filter((_, i) => i % 2 === 1);
      expect(x, a.id).toBeGreaterThanOrEqual(Math.min(...xs));
      expect(x, a.id).toBeLessThanOrEqual(Math.max(...xs));
      expect(y, a.id).toBeGreaterThanOrEqual(Math.min(...ys));
      expect(y, a.id).toBeLessThanOrEqual(Math.max(...ys));
    }
  });

  it('every label lies inside its own area, so counters drawn there sit in the right place', () => {
    for (const a of map.areas) expect(inside(a.path, a.label[0], a.label[1]), a.id).toBe(true);
  });

  it('labels are spread out: no two areas share a label point', () => {
    const seen = new Set(map.areas.map((a) => a.label.join(',')));
    expect(seen.size).toBe(map.areas.length);
  });

  it('carries the drawing aids: islands, rivers, mountains, boundaries', () => {
    const d = map.decor;
    expect(d).toBeDefined();
    expect(d?.islands.length).toBeGreaterThan(0);
    expect(d?.imperialBoundary.length).toBeGreaterThan(0);
    expect(d?.provinceBoundaries.length).toBeGreaterThan(0);
    expect(d?.rivers.map((r) => r.name)).toEqual(
      expect.arrayContaining(['Rhenus', 'Danubius', 'Euphrates', 'Nilus']),
    );
    expect(d?.mountains.map((m) => m.name)).toEqual(
      expect.arrayContaining(['Alpes', 'Pyrenaei', 'Caucasus']),
    );
  });
});
