/**
 * A board position as a link and back (docs/analysis-board.md). Written: what a spectator may see
 * of the board's current game (viewers/game-view.ts), so a link never carries anybody's sealed
 * choice — not even the sharer's own plan in the world the board was opened from. Read: checked
 * against the format (model/position-link.ts), the map this engine plays on, and the rules
 * themselves (a position whose pieces fit the format but not together is refused, not played).
 */
import type { Engine } from '../engine.ts';
import type { AreaId } from '../model/ids.ts';
import {
  POSITION_FORMAT,
  POSITION_VERSION,
  type PositionLink,
  type PositionResult,
  parsePositionLink,
  refusePosition,
  type SharedPosition,
} from '../model/position-link.ts';
import type { GameState } from '../model/state.ts';
import { viewFor } from '../viewers/game-view.ts';
import { positionFromView } from './position-from-view.ts';

/** The shareable part of a game: the spectators' view without what the engine derives again. */
export function sharePosition(state: GameState): PositionLink {
  const {
    viewer: _viewer,
    waitingFor: _waiting,
    canUndo: _canUndo,
    standings: _standings,
    ...position
  } = viewFor(state, null);
  return {
    format: POSITION_FORMAT,
    version: POSITION_VERSION,
    position: position as unknown as SharedPosition,
  };
}

/** A link's content as a game the board can play, seeded with the person's `seed`, or why not. */
export function openPosition(engine: Engine, raw: unknown, seed: string): PositionResult<GameState> {
  const parsed = parsePositionLink(raw);
  if (!parsed.ok) return parsed;
  const p = parsed.value.position;
  if (p.mapVersion !== engine.map.version)
    return refusePosition(
      'position/map_mismatch',
      `the position is on map ${p.mapVersion}, this site has ${engine.map.version}`,
      {
        position: p.mapVersion,
        engine: engine.map.version,
      },
    );
  const strayUnit = Object.entries(p.units).find(
    ([key, u]) => key !== u.id || !engine.map.area(u.area as AreaId),
  );
  if (strayUnit)
    return refusePosition('position/unplayable', `unit ${strayUnit[0]} is not on this map`, {
      unit: strayUnit[0],
    });
  const players = new Set(p.players.map((x) => x.id as string));
  const stranger = Object.values(p.units).find((u) => !players.has(u.owner));
  if (stranger)
    return refusePosition('position/unplayable', `unit ${stranger.id} belongs to nobody in the position`, {
      unit: stranger.id,
    });
  const state = positionFromView(p, seed);
  // The rules are the last check: pieces that each fit the format may not fit together (a step
  // naming a unit that is not there). The engine throws only on such a state, never on a real one.
  try {
    for (const player of engine.waitingFor(state)) engine.legalOrders(state, player);
    engine.hash(state);
  } catch (e) {
    return refusePosition(
      'position/unplayable',
      `the rules cannot play this position (${String(e).slice(0, 200)})`,
    );
  }
  return { ok: true, value: state };
}
