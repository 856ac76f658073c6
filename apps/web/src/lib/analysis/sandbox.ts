/**
 * The rules engine in the page, for the analysis board only (docs/analysis-board.md): this module is
 * reached through a dynamic import, so the engine is a chunk of its own that the rest of the site
 * never loads. It turns what the person may see into a game the board plays on — a view, a shared
 * link, or a complete record played up to one of its orders — always through the engine's
 * view-to-position builder, so no hidden part of the game ever reaches the board.
 */
import {
  createEngine,
  type GameState,
  openPosition,
  type PlayerId,
  type PositionResult,
  parseRecord,
  positionFromView,
  refusePosition,
  type VisiblePosition,
} from '@bke/engine';
import type { GameView } from '@bke/protocol';

export const engine = createEngine();

/** A seed for the board's dice, fresh for each board (the person may write another). */
export function freshSeed(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** What a board opens on. */
export type BoardStart =
  | { readonly kind: 'view'; readonly view: GameView }
  | { readonly kind: 'link'; readonly raw: unknown }
  | { readonly kind: 'record'; readonly record: unknown; readonly upTo: number };

/** The game a board starts from, or why it cannot be opened (a typed code the page words). */
export function startingGame(start: BoardStart, seed: string): PositionResult<GameState> {
  if (start.kind === 'view')
    return { ok: true, value: positionFromView(start.view as unknown as VisiblePosition, seed) };
  if (start.kind === 'link') return openPosition(engine, start.raw, seed);
  return recordPosition(start.record, start.upTo, seed);
}

/**
 * A complete record played up to (and with) its order number `upTo`, seen as a spectator sees it:
 * a finished world's record holds the whole game, but the board starts, as always, from a view.
 */
function recordPosition(raw: unknown, upTo: number, seed: string): PositionResult<GameState> {
  const parsed = parseRecord(raw);
  if (!parsed.ok || parsed.value.kind !== 'complete')
    return refusePosition('position/unplayable', 'only a complete record can be played up to an order');
  const record = parsed.value;
  const created = engine.createGame({ ...record.setup, rulesVersion: record.rulesVersion });
  if (!created.ok)
    return refusePosition('position/unplayable', `the record's set-up was refused (${created.error.code})`);
  let state = created.value;
  for (const o of record.orders) {
    if (o.seq > upTo) break;
    const r = engine.applyOrder(state, o.actor as PlayerId | 'system', o.order);
    if (!r.ok)
      return refusePosition(
        'position/unplayable',
        `order ${o.seq} of the record was refused (${r.error.code})`,
      );
    state = r.value.state;
  }
  return { ok: true, value: positionFromView(engine.view(state, null), seed) };
}
