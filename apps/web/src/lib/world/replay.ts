/**
 * A past turn told again, event by event, from the events this viewer was sent (the server sends
 * each viewer only what it may see, so a replay shows nothing more). Each step says what happened
 * in words and where on the map.
 */
import type { Highlight } from '../map/board.ts';
import { eventWords } from '../words.ts';
import type { Names } from './history.ts';
import type { LoggedEvent } from './link.ts';

export interface ReplayStep {
  readonly seq: number;
  readonly text: string;
  /** What the map lights for this step: the path moved, or the area it happened in. */
  readonly highlight: Highlight;
  /** The areas to bring into view. */
  readonly areas: string[];
}

const strings = (x: unknown): string[] => (Array.isArray(x) ? x.map(String) : []);

/** Where an event happened: the path moved, or its area. */
export function whereOf(event: LoggedEvent['event']): { highlight: Highlight; areas: string[] } {
  // Events differ in where they say they happened; read the fields any of them may carry.
  const e = event as { path?: unknown; area?: unknown; target?: unknown; to?: unknown };
  const path = strings(e.path);
  if (path.length > 1) {
    const [from = '', ...rest] = path;
    return { highlight: { route: { from, path: rest }, selectedArea: path[path.length - 1] }, areas: path };
  }
  const area = [e.area, e.target, e.to, path[0]].find((a) => typeof a === 'string') as string | undefined;
  return area ? { highlight: { selectedArea: area }, areas: [area] } : { highlight: {}, areas: [] };
}

/** The turns the log holds, newest first. */
export const replayTurns = (log: readonly LoggedEvent[]): number[] =>
  [...new Set(log.map((l) => l.turn))].sort((a, b) => b - a);

/** The steps of one turn, in the order they happened; events without words are skipped. */
export function replaySteps(log: readonly LoggedEvent[], turn: number, names: Names): ReplayStep[] {
  return log
    .filter((l) => l.turn === turn)
    .flatMap((l) => {
      const text = eventWords(l.event, names);
      return text ? [{ seq: l.seq, text, ...whereOf(l.event) }] : [];
    });
}
