/** The board geometry from @bke/map, loaded on demand so the lobby does not wait for it. */
import type { BoardMap } from './board.ts';

let pending: Promise<BoardMap> | null = null;

export function loadBoard(): Promise<BoardMap> {
  pending ??= import('@bke/map').then((m) => m.loadMap());
  return pending;
}
