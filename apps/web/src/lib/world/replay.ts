/**
 * A past turn told again, order by order. The server rebuilds the turn as this viewer saw it (the
 * board as the turn began, then each order's patch and the events the viewer was sent), so each
 * step redraws the board of that moment and says what happened in words and where. Without that
 * answer, the events this viewer's log holds are told on today's board instead.
 */
import { applyPatch, type GameView, type TurnReplay } from '@bke/protocol';
import { call } from '../api.ts';
import type { Highlight } from '../map/board.ts';
import { eventWords, unitWords } from '../words.ts';
import type { Names } from './history.ts';
import type { LoggedEvent } from './link.ts';

export interface ReplayStep {
  readonly seq: number;
  readonly text: string;
  /** What the map lights for this step: the path moved, or the area it happened in. */
  readonly highlight: Highlight;
  /** The areas to bring into view. */
  readonly areas: string[];
  /** The board as the viewer saw it after this step (absent: today's board). */
  readonly view?: GameView;
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

/** A past turn as the server rebuilt it for the caller (404: the world never played it). */
export const fetchReplay = (worldId: string, turn: number) =>
  call('replayTurn', { params: { id: worldId, turn: String(turn) } });

/**
 * The steps of a rebuilt turn: first the board as the turn began, then one step per order that
 * the viewer was told of in words, each with the board after it. An order with no words (another
 * player's sealed choice, a phase passing) is not a step of its own; its effect on the board shows
 * from the next step on.
 */
export function rebuiltSteps(replay: TurnReplay, names: Names): ReplayStep[] {
  let view = replay.start.view as GameView;
  const steps: ReplayStep[] = [
    {
      seq: replay.start.seq,
      text: `The board as turn ${replay.turn} began.`,
      highlight: {},
      areas: [],
      view,
    },
  ];
  for (const s of replay.steps) {
    const before = view;
    view = applyPatch(view, s.ops) as GameView;
    // A unit is named as it was then (a tribe since combined, a unit since lost), not as today.
    const kindThen = (u: unknown) => (before.units[String(u)] ?? view.units[String(u)])?.kind;
    const then: Names = {
      ...names,
      unit: (u) => {
        const kind = kindThen(u);
        return kind ? unitWords(kind, before).name.toLowerCase() : names.unit(u);
      },
    };
    const texts = s.events.flatMap((e) => {
      const t = eventWords(e, then);
      return t ? [t] : [];
    });
    if (!texts.length) continue;
    const where = s.events.map((e) => whereOf(e)).find((w) => w.areas.length) ?? { highlight: {}, areas: [] };
    steps.push({ seq: s.seq, text: texts.join(' '), ...where, view });
  }
  return steps;
}
