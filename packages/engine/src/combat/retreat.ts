/**
 * 7.3 Retreat criteria. Enumerates the legal retreat paths of one unit so that its owner can choose
 * among them: every step legal (never overstacked, never into or through unfriendly units or a
 * friendly garrison), then the best by the book's priorities (end not adjacent to the units fought,
 * not adjacent after the first area, as far away as possible, unfriendly cities only if needed).
 * Pure: the map and the units come in as small functions, so naval retreats (8.3) can reuse it.
 */
import { mayJoin, type StackPiece } from '../model/stacking.ts';

export interface RetreatingUnit extends StackPiece {
  readonly id: string;
  readonly owner: string;
  /** Movement capability (MA); a unit whose MA is below the retreat distance is eliminated (7.2). */
  readonly movement: number;
}

/** The board around the retreating unit, as functions (no state types needed). */
export interface RetreatBoard {
  /** Areas one step away that this unit could move into at all (land borders, red arrows). */
  readonly neighbours: (area: string) => readonly string[];
  /** Everything standing in an area now, the retreating unit itself excluded. */
  readonly occupants: (area: string) => readonly StackPiece[];
  /** 9.3.1: tribes may never enter a desert (a tribe forced to is eliminated). */
  readonly desert: (area: string) => boolean;
  /** 7.3 criterion 3: the area holds a city that is not the retreating player's. */
  readonly unfriendlyCity: (area: string) => boolean;
}

export interface RetreatRequest {
  readonly unit: RetreatingUnit;
  readonly from: string;
  /** Number of areas to retreat (the n of DRn / ARn). */
  readonly distance: number;
  /** Areas holding the units this unit fought (criterion 2). */
  readonly fought: readonly string[];
  /** Areas no retreat of this combat may enter, so that units never swap places (7.3). */
  readonly forbidden?: ReadonlySet<string>;
}

export type RetreatOptions =
  /** The legal full-length paths (areas entered, in order, without the start); the owner picks one. */
  | { readonly kind: 'paths'; readonly paths: readonly (readonly string[])[] }
  /**
   * No legal path: the unit is eliminated (7.2). It is first moved as far as it legally can; the
   * owner picks one of these partial paths (possibly empty), which is where pursuit must stop.
   */
  | {
      readonly kind: 'eliminated';
      readonly reason: RetreatFailure;
      readonly partialPaths: readonly (readonly string[])[];
    };

const RETREAT_FAILURES = ['retreat/immobile', 'retreat/movement', 'retreat/noPath'] as const;
type RetreatFailure = (typeof RETREAT_FAILURES)[number];

/** 7.3 criterion 1 and 11.3, 9.3.1: whether the unit may stand in `area` during its retreat. */
function mayRetreatInto(board: RetreatBoard, unit: RetreatingUnit, area: string): boolean {
  const present = board.occupants(area);
  if (present.some((p) => p.owner !== unit.owner && p.kind !== 'leader')) return false;
  if (unit.kind === 'tribe' && board.desert(area)) return false;
  return mayJoin(
    present.filter((p) => p.owner === unit.owner),
    unit,
  );
}

/** Every simple path of exactly `length` legal steps from `from` (and every shorter dead end's prefix). */
function walk(board: RetreatBoard, request: RetreatRequest, length: number): string[][] {
  const found: string[][] = [];
  const visit = (at: string, path: string[]) => {
    found.push(path);
    if (path.length === length) return;
    for (const next of board.neighbours(at)) {
      if (next === request.from || path.includes(next)) continue;
      if (request.forbidden?.has(next)) continue;
      if (!mayRetreatInto(board, request.unit, next)) continue;
      visit(next, [...path, next]);
    }
  };
  visit(request.from, []);
  return found;
}

/** Graph distance (through `neighbours`, ignoring units) from the nearest fought area. */
function distanceFromFought(
  board: RetreatBoard,
  fought: readonly string[],
  horizon: number,
): (area: string) => number {
  const dist = new Map<string, number>(fought.map((a) => [a, 0]));
  let frontier = [...fought];
  for (let d = 1; frontier.length > 0 && d <= horizon; d++) {
    const next: string[] = [];
    for (const area of frontier) {
      for (const n of board.neighbours(area)) {
        if (!dist.has(n)) {
          dist.set(n, d);
          next.push(n);
        }
      }
    }
    frontier = next;
  }
  return (area) => dist.get(area) ?? horizon + 1;
}

/** 7.3 criteria 2 and 3 as a score tuple; bigger is better, compared left to right. */
function pathScore(board: RetreatBoard, path: readonly string[], dist: (area: string) => number): number[] {
  const end = path[path.length - 1]!;
  const first = path[0]!;
  return [
    dist(end) >= 2 ? 1 : 0,
    path.length === 1 || dist(first) >= 2 ? 1 : 0,
    dist(end),
    path.some((a) => board.unfriendlyCity(a)) ? 0 : 1,
  ];
}

function compareScores(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * 7.2, 7.3: the retreat paths the owner may choose among, or the elimination of the unit. Criterion 1
 * (legal at every step) is absolute; among the legal paths only the best by criteria 2–3 remain.
 */
export function retreatOptions(board: RetreatBoard, request: RetreatRequest): RetreatOptions {
  const { unit, distance } = request;
  if (unit.movement <= 0) return { kind: 'eliminated', reason: 'retreat/immobile', partialPaths: [[]] };
  const reach = Math.min(distance, unit.movement);
  const walked = walk(board, request, reach);
  if (unit.movement < distance) {
    return { kind: 'eliminated', reason: 'retreat/movement', partialPaths: longest(walked) };
  }
  const full = walked.filter((p) => p.length === distance);
  if (full.length === 0)
    return { kind: 'eliminated', reason: 'retreat/noPath', partialPaths: longest(walked) };
  if (full.length === 1) return { kind: 'paths', paths: full };
  // The start touches a fought area, so no end lies further than distance + 1: look no further.
  const dist = distanceFromFought(board, request.fought, distance + 2);
  const scored = full.map((path) => ({ path, score: pathScore(board, path, dist) }));
  const best = scored.reduce((b, s) => (compareScores(s.score, b) > 0 ? s.score : b), scored[0]!.score);
  return {
    kind: 'paths',
    paths: scored.filter((s) => compareScores(s.score, best) === 0).map((s) => s.path),
  };
}

function longest(paths: readonly string[][]): string[][] {
  const max = paths.reduce((m, p) => Math.max(m, p.length), 0);
  return paths.filter((p) => p.length === max);
}

/** 7.3: whether `path` is one of the paths the owner may choose. */
export function isLegalRetreat(options: RetreatOptions, path: readonly string[]): boolean {
  const list = options.kind === 'paths' ? options.paths : options.partialPaths;
  return list.some((p) => p.length === path.length && p.every((a, i) => a === path[i]));
}
