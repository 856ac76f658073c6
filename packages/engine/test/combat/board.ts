/** A tiny hand-made board for retreat and pursuit tests: areas joined by "A-B" edges. */
import type { RetreatBoard } from '../../src/combat/retreat.ts';
import type { StackPiece } from '../../src/model/stacking.ts';

export interface ToyBoard extends RetreatBoard {
  readonly place: (area: string, ...pieces: StackPiece[]) => ToyBoard;
}

export function toyBoard(
  edges: string,
  options: { desert?: readonly string[]; unfriendlyCities?: readonly string[] } = {},
  pieces: Readonly<Record<string, readonly StackPiece[]>> = {},
): ToyBoard {
  const adjacency = new Map<string, string[]>();
  for (const edge of edges.split(/\s+/).filter(Boolean)) {
    const [a, b] = edge.split('-') as [string, string];
    adjacency.set(a, [...(adjacency.get(a) ?? []), b].sort());
    adjacency.set(b, [...(adjacency.get(b) ?? []), a].sort());
  }
  return {
    neighbours: (area) => adjacency.get(area) ?? [],
    occupants: (area) => pieces[area] ?? [],
    desert: (area) => options.desert?.includes(area) ?? false,
    unfriendlyCity: (area) => options.unfriendlyCities?.includes(area) ?? false,
    place: (area, ...more) =>
      toyBoard(edges, options, { ...pieces, [area]: [...(pieces[area] ?? []), ...more] }),
  };
}
