/**
 * Stored states of an older shape (`schema`), brought to the current one as they are loaded: a
 * world recorded by an earlier version of the engine keeps loading, replaying and rebuilding. Each
 * step turns a state of one schema into the next and gives exactly what the current engine would
 * have produced at the same point of the game, so replays from an upgraded snapshot and from the
 * start agree hash for hash.
 */
import type { LedgerRow } from './realm.ts';
import { type FinishedCycles, type GameState, type GameStateCore, STATE_SCHEMA } from './state.ts';

/** Schema 1: the whole record sheet in `realm.ledger`, every finished cycle in `pastCycles`. */
interface PlayerV1 {
  readonly pastCycles?: readonly { readonly vp: number }[];
  readonly [k: string]: unknown;
}
interface RealmV1 {
  readonly ledger?: readonly LedgerRow[];
  readonly [k: string]: unknown;
}
interface StateV1 {
  readonly schema: 1;
  readonly players: readonly PlayerV1[];
  readonly realm?: RealmV1;
  readonly undo?: { readonly base: StateV1; readonly orders: readonly unknown[] } | null;
  readonly [k: string]: unknown;
}

/** The rows of the latest turn that wrote any: what the sheet holds now (`withSheetRow`). */
function latestPage(ledger: readonly LedgerRow[]): LedgerRow[] {
  const last = ledger.at(-1);
  return last ? ledger.filter((r) => r.turn === last.turn) : [];
}

function finishedOf(past: readonly { readonly vp: number }[]): FinishedCycles {
  return {
    count: past.length,
    bestVp: past.reduce((best, c) => Math.max(best, c.vp), 0),
    totalVp: past.reduce((sum, c) => sum + c.vp, 0),
  };
}

function fromV1(s: StateV1): GameStateCore & { undo?: unknown } {
  const { ledger, ...realm } = s.realm ?? {};
  const out: Record<string, unknown> = {
    ...s,
    schema: STATE_SCHEMA,
    players: s.players.map(({ pastCycles, ...p }) => ({ ...p, finished: finishedOf(pastCycles ?? []) })),
  };
  if (s.realm) out.realm = { ...realm, sheet: latestPage(ledger ?? []) };
  // The undo log's base is a state of the same shape (kept until the next die or reveal).
  if (s.undo) out.undo = { ...s.undo, base: fromV1(s.undo.base) };
  return out as unknown as GameStateCore;
}

/** Whether a stored state needs `upgradeState` (it was written by an older engine). */
export const isCurrentState = (raw: unknown): boolean =>
  typeof raw === 'object' && raw !== null && (raw as { schema?: unknown }).schema === STATE_SCHEMA;

/**
 * A stored state in the current shape: returned as is when it already is, upgraded step by step
 * when older. An unknown schema is refused (thrown): it would be a state of a newer engine.
 */
export function upgradeState(raw: unknown): GameState {
  if (isCurrentState(raw)) return raw as GameState;
  const schema = (raw as { schema?: unknown } | null)?.schema;
  if (schema === 1) return fromV1(raw as StateV1) as GameState;
  throw new Error(`stored state has an unknown schema (${String(schema)})`);
}

/**
 * A public view of a stored state's shape brought to the current one, as `upgradeState` does for
 * the state (a view has no record sheet; its players carry the same totals). What checks an old
 * world's stored patches uses: they were made from views of the shape of their day.
 */
export function upgradeView(raw: unknown): unknown {
  const v = raw as { players?: readonly PlayerV1[] } | null;
  // A view rebuilt from stored patches starts from today's initial view (schema and all) and
  // gets its players from the patches, so the players' shape is what tells.
  if (!Array.isArray(v?.players) || !v.players.some((p) => 'pastCycles' in p)) return raw;
  return {
    ...v,
    schema: STATE_SCHEMA,
    players: v.players.map(({ pastCycles, ...p }) =>
      pastCycles ? { ...p, finished: finishedOf(pastCycles) } : p,
    ),
  };
}
