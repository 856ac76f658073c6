import { describe, expect, it } from 'vitest';
import { clampPan, fit, fitBox, MAX_ZOOM, panBy, pinch, toBoard, zoomAt } from './viewport.ts';

const board = { width: 2000, height: 1445 };
const screen = { width: 1000, height: 500 };

describe('viewport', () => {
  it('fits the whole board, centred, limited by the tighter side', () => {
    const v = fit(board, screen);
    expect(v.k).toBeCloseTo(500 / 1445);
    expect(v.y).toBeCloseTo(0);
    expect(v.x).toBeCloseTo((1000 - 2000 * v.k) / 2);
  });

  it('zooms around the cursor: the board point under it stays put', () => {
    const v = fit(board, screen);
    const before = toBoard(v, 300, 200);
    const z = zoomAt(v, 2, 300, 200, v.k);
    expect(z.k).toBeCloseTo(v.k * 2);
    const after = toBoard(z, 300, 200);
    expect(after[0]).toBeCloseTo(before[0]);
    expect(after[1]).toBeCloseTo(before[1]);
  });

  it('clamps zoom between 0.8 × fit and the maximum', () => {
    const v = fit(board, screen);
    expect(zoomAt(v, 0.01, 0, 0, v.k).k).toBeCloseTo(v.k * 0.8);
    expect(zoomAt(v, 1000, 0, 0, v.k).k).toBe(MAX_ZOOM);
  });

  it('keeps part of the board on screen when panned far away', () => {
    const v = fit(board, screen);
    const lost = clampPan(panBy(v, 10_000, 10_000), board, screen);
    expect(lost.x).toBeLessThanOrEqual(screen.width * 0.75);
    expect(lost.y).toBeLessThanOrEqual(screen.height * 0.75);
    const other = clampPan(panBy(v, -10_000, -10_000), board, screen);
    expect(other.x + board.width * v.k).toBeGreaterThanOrEqual(screen.width / 4);
  });

  it('pinches: fingers spreading apart zoom in around their midpoint', () => {
    const v = { x: 0, y: 0, k: 1 };
    const p = pinch(
      v,
      [
        [100, 100],
        [200, 100],
      ],
      [
        [50, 100],
        [250, 100],
      ],
      0.5,
    );
    expect(p.k).toBeCloseTo(2);
    const mid = toBoard(p, 150, 100);
    expect(mid[0]).toBeCloseTo(150);
    expect(mid[1]).toBeCloseTo(100);
  });
});

describe('fitBox', () => {
  it('centres the box and zooms so it fills the screen, capped', () => {
    const v = fitBox({ x0: 100, y0: 100, x1: 300, y1: 200 }, { width: 1000, height: 500 }, 0, 10);
    expect(v.k).toBeCloseTo(5);
    expect(toBoard(v, 500, 250)).toEqual([200, 150]);
    expect(fitBox({ x0: 0, y0: 0, x1: 1, y1: 1 }, { width: 1000, height: 500 }, 0, 3).k).toBe(3);
  });
});
