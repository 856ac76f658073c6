/**
 * Limits on empire units' movement and attacks: 11.5 (an empire unit may never move to where it
 * would be unsupported at the end of movement) and 11.7.2 result 11, Attempted Coup (AMBIG-38:
 * on the next player turn, 5-3 elites may move or attack only if they end their movement in the
 * capital's area or next to it).
 */
import { isLeased } from '../diplomacy/mercenaries.ts';
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId } from '../model/ids.ts';
import { playerById } from '../model/queries.ts';
import { realmPlayer } from '../model/realm.ts';
import type { GameStateCore } from '../model/state.ts';
import type { Unit } from '../model/units.ts';
import { isSupportedAt } from './support.ts';

/** 11.7.2 result 11: is a coup restricting this player's elites in this game turn? */
function coupActive(g: GameStateCore, player: PlayerId): boolean {
  return realmPlayer(g, player).coupTurn === g.turn;
}

/** 11.7.2 result 11: may this elite end its move in `to` during a coup (capital or next to it)? */
function coupAllows(ctx: EngineContext, g: GameStateCore, unit: Unit, to: AreaId): boolean {
  if (unit.kind !== 'elite' || !coupActive(g, unit.owner as PlayerId)) return true;
  const capital = playerById(g, unit.owner as PlayerId)?.capital;
  if (!capital) return false;
  return to === capital || ctx.map.landLinks(capital).some((l) => l.to === to);
}

/**
 * 11.5 and 11.7.2 result 11: may this unit end its move in `to`? Barbarian and kingdom units are
 * always supported; an empire unit must be supported there once it has moved (unless it already
 * stood unsupported where it started, when any move that regains support is what the rule wants).
 */
export function empireMoveAllowed(ctx: EngineContext, g: GameStateCore, unit: Unit, to: AreaId): boolean {
  if (playerById(g, unit.owner as PlayerId)?.cycle?.stage !== 'empire') return true;
  if (isLeased(g, unit.id)) return true; // 13.4: a hired barbarian unit is never unsupported
  if (!coupAllows(ctx, g, unit, to)) return false;
  const moved: GameStateCore = { ...g, units: { ...g.units, [unit.id]: { ...unit, area: to } } };
  return isSupportedAt(ctx, moved, unit.owner as PlayerId, to);
}

/** 11.7.2 result 11: may this elite attack this turn (it stands in or next to the capital)? */
export function coupAllowsAttack(ctx: EngineContext, g: GameStateCore, unit: Unit): boolean {
  return coupAllows(ctx, g, unit, unit.area);
}
