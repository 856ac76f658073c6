/**
 * What the map can print at a zoom: counters kept at a readable size on screen, and area names
 * only where there is room for them (the distance to the next area's label point), so the first,
 * whole-map zoom shows the names of the large areas and zooming in brings the rest.
 */
import type { BoardArea } from './board.ts';

/** Per area, the distance (board units) from its label point to the nearest other label point. */
export function labelRoom(areas: readonly BoardArea[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const a of areas) {
    let best = Number.POSITIVE_INFINITY;
    for (const b of areas) {
      if (b === a) continue;
      const d = Math.hypot(a.label[0] - b.label[0], a.label[1] - b.label[1]);
      if (d < best) best = d;
    }
    out.set(a.id, best);
  }
  return out;
}

/** Screen pixels of an area name's letters. */
export const NAME_PX = 10.5;
/** An average letter's width in the map's sans-serif, as a share of its size. */
const LETTER_WIDTH = 0.56;

/** Whether `name`, printed NAME_PX high on screen at zoom k, fits between its neighbours. */
export const nameFits = (name: string, room: number, k: number): boolean =>
  name.length * NAME_PX * LETTER_WIDTH <= 1.7 * room * k;

/**
 * A counter's side in board units at zoom k: about 24 screen pixels at the first zoom, growing to
 * 30 as the player zooms in, but never wider than the tighter areas' spacing (a whole-map view
 * on a phone keeps them apart) and never below 10 units.
 */
export function counterSize(k: number): number {
  const screen = Math.min(30, Math.max(24, 20 + 6 * k));
  return Math.max(10, Math.min(56, screen / k));
}

/** Below this many screen pixels a counter prints its kind and face larger, its owner's letter smaller. */
export const COMPACT_PX = 27;
