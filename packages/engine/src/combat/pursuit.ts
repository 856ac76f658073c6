/**
 * 7.2 Pursuit and advance after combat. Winning units may follow a retreat path and stop anywhere
 * along it; after DE or EX one or two units may advance into the vacated area.
 */

export interface PursuitRequest {
  /** The area the beaten unit retreated from (the combat's target area for DR). */
  readonly origin: string;
  /** The areas the beaten unit entered, in order (its partial path if it was eliminated). */
  readonly path: readonly string[];
  /** The pursuer's movement capability; entering the origin costs one. */
  readonly movement: number;
  /** The pursuer may enter this area (no unfriendly non-leader unit, no desert for tribes, …). */
  readonly mayEnter: (area: string) => boolean;
  /** The pursuer may end its move here (stacking with what is already there). */
  readonly mayEnd: (area: string) => boolean;
}

/**
 * 7.2: the areas a pursuer may stop in, nearest first: along origin → path, no further than its MA,
 * never into an area it may not enter (so never onto the retreated unit itself); stacking is only
 * checked where it stops, as for any move (5.1).
 */
export function pursuitStops(request: PursuitRequest): string[] {
  const route = [request.origin, ...request.path];
  const stops: string[] = [];
  for (let i = 0; i < route.length && i < request.movement; i++) {
    const area = route[i]!;
    if (!request.mayEnter(area)) break;
    if (request.mayEnd(area)) stops.push(area);
  }
  return stops;
}

/** The most units that may advance into a vacated area after DE or EX (7.2). */
export const MAX_ADVANCE = 2;
