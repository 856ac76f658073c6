/**
 * The story of a world from its event log: sentences grouped by turn, the last turn's summary,
 * and the chronicle — which horde rose where, became a kingdom or empire, and when it ended.
 */
import type { CycleRow, GameView } from '@bke/protocol';
import { eventPlayer, eventWords } from '../words.ts';
import type { LoggedEvent } from './link.ts';

export interface Names {
  player(id: unknown): string;
  area(id: unknown): string;
  unit(id: unknown): string;
}

export interface TurnEntry {
  readonly turn: number;
  readonly lines: readonly { readonly seq: number; readonly text: string; readonly kind: string }[];
}

/** Sentences grouped by turn, newest turn first. */
export function logByTurn(log: readonly LoggedEvent[], names: Names): TurnEntry[] {
  const turns = new Map<number, { seq: number; text: string; kind: string }[]>();
  for (const l of log) {
    const text = eventWords(l.event, names);
    if (text === null) continue;
    const list = turns.get(l.turn) ?? [];
    list.push({ seq: l.seq, text, kind: l.event.type });
    turns.set(l.turn, list);
  }
  return [...turns.entries()].sort((a, b) => b[0] - a[0]).map(([turn, lines]) => ({ turn, lines }));
}

export interface TurnSummary {
  readonly turn: number;
  readonly battles: number;
  readonly cityChanges: number;
  readonly pillages: number;
  readonly vp: readonly { readonly player: string; readonly vp: number }[];
  readonly milestones: readonly string[];
}

const MILESTONES = new Set([
  'cycleStarted',
  'becameKingdom',
  'becameEmpire',
  'cycleEnded',
  'playerJoined',
  'playerLeft',
]);

/** What happened in the last finished turn (or the current one when none has finished). */
export function lastTurnSummary(
  log: readonly LoggedEvent[],
  view: GameView,
  names: Names,
): TurnSummary | null {
  const finished = log.filter((l) => l.event.type === 'turnEnded').map((l) => l.turn);
  const turn = finished.length ? Math.max(...finished) : view.turn;
  const events = log.filter((l) => l.turn === turn).map((l) => l.event);
  if (events.length === 0) return null;
  const vp = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'vpGained') vp.set(String(e.player), (vp.get(String(e.player)) ?? 0) + Number(e.vp));
  }
  return {
    turn,
    battles: events.filter((e) => e.type === 'combatResolved').length,
    cityChanges: events.filter((e) => e.type === 'cityOwnerChanged').length,
    pillages: events.filter((e) => e.type === 'cityPillaged').length,
    vp: [...vp.entries()].map(([player, v]) => ({ player: names.player(player), vp: v })),
    milestones: events
      .filter((e) => MILESTONES.has(e.type))
      .map((e) => eventWords(e, names))
      .filter((s): s is string => s !== null),
  };
}

export interface ChronicleLine {
  readonly turn: number;
  readonly text: string;
}

/** The chronicle: the rise and fall of each cycle, oldest first. */
export function chronicle(log: readonly LoggedEvent[], names: Names): ChronicleLine[] {
  const out: ChronicleLine[] = [];
  const position = new Map<string, string>();
  for (const l of log) {
    const e = l.event;
    const p = names.player(eventPlayer(e));
    const horde = position.get(String(eventPlayer(e))) ?? 'horde';
    switch (e.type) {
      case 'cycleStarted':
        position.set(String(e.player), String(e.position));
        out.push({ turn: l.turn, text: `The ${e.position} horde of ${p} appears in ${names.area(e.area)}.` });
        break;
      case 'becameKingdom':
        out.push({
          turn: l.turn,
          text: `The ${horde} horde of ${p} settles as a kingdom${e.capital ? ` ruled from ${names.area(e.capital)}` : ''}.`,
        });
        break;
      case 'becameEmpire':
        out.push({ turn: l.turn, text: `The ${horde} kingdom of ${p} grows into an empire.` });
        break;
      case 'cycleEnded':
        out.push({
          turn: l.turn,
          text: `The ${horde} realm of ${p} falls (${String(e.reason)}) with ${e.vp} victory points.`,
        });
        break;
      case 'playerJoined':
        out.push({ turn: l.turn, text: `${p} arrives in the world.` });
        break;
      default:
        break;
    }
  }
  return out;
}

/** A cycle as the server keeps it. */
export type CycleRecord = CycleRow;

const END_WORDS: Record<string, string> = {
  abandoned: 'was abandoned',
  eliminated: 'was wiped out',
  left: 'was left behind by its ruler',
  collapsed: 'collapsed',
};

/** The chronicle from the server's cycle records: complete even after a reload. */
export function chronicleOfCycles(cycles: readonly CycleRecord[], names: Names): ChronicleLine[] {
  const out: ChronicleLine[] = [];
  for (const c of cycles) {
    const p = names.player(c.playerId);
    out.push({ turn: c.startTurn, text: `The ${c.position} horde of ${p} rises (cycle ${c.number}).` });
    if (c.kingdomTurn !== null)
      out.push({ turn: c.kingdomTurn, text: `The ${c.position} horde of ${p} becomes a kingdom.` });
    if (c.empireTurn !== null)
      out.push({ turn: c.empireTurn, text: `The ${c.position} kingdom of ${p} becomes an empire.` });
    if (c.endTurn !== null) {
      const how = END_WORDS[c.endReason ?? ''] ?? `ended (${c.endReason ?? 'unknown'})`;
      out.push({
        turn: c.endTurn,
        text: `The ${c.position} realm of ${p} ${how}, with ${c.vp} victory points.`,
      });
    }
  }
  return out.sort((a, b) => a.turn - b.turn);
}
