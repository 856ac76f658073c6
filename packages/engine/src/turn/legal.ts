/** Who must act now, and every order a player may give now (what the client highlights). */
import { combatLegalOrders, combatWaitingFor } from '../combat-phase/phase.ts';
import type { PlayerId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { MapIndex } from '../model/map-index.ts';
import { playerById } from '../model/queries.ts';
import type { GameState, GameStateCore } from '../model/state.ts';
import { realmWaitingFor } from '../realm/choices.ts';
import { realmAnytimeLegal } from '../realm/diplomacy-orders.ts';
import { mayAbandon } from '../realm/record.ts';
import { entryLegal } from '../scenario/cycles.ts';
import { administrationLegal } from './administration-phase.ts';
import { ctxOf } from './apply-order.ts';
import { economicLegal } from './economic.ts';
import { supportMovesOwed } from './movement-phase.ts';
import { playerPhaseOrders } from './phase-orders.ts';

/** 4: who must act now (several players at once in the economic phase, 4.5). */
export function waitingFor(g: GameStateCore): PlayerId[] {
  const s = g.step;
  switch (s.kind) {
    case 'idle':
      return [];
    case 'entry':
      return s.queue[0] ? [s.queue[0]] : [];
    case 'playerTurn':
      return s.phase === 'combat' ? combatWaitingFor(g) : [s.player];
    case 'economic':
      return [...s.pending];
    case 'administration':
      if (s.choice?.type === 'realm') return realmWaitingFor(g);
      return s.choice && s.player ? [s.player] : [];
  }
}

/** 4: every order the player may give now (what the client highlights). */
export function legalOrdersOf(map: MapIndex, g: GameState, player: PlayerId): LegalOrder[] {
  const ctx = ctxOf(map, g);
  const p = playerById(g, player);
  if (!p || p.status === 'left') return [];
  const out: LegalOrder[] = [];
  const s = g.step;
  if (s.kind === 'entry') out.push(...entryLegal(ctx, g, player));
  if (s.kind === 'playerTurn') {
    if (s.phase === 'combat') out.push(...combatLegalOrders(ctx, g, player));
    else if (s.player === player) {
      out.push(...playerPhaseOrders(ctx, g, player));
      // 11.5: an unsupported empire unit that can regain support must try before the phase ends.
      if (s.phase !== 'stacking' && supportMovesOwed(ctx, g, player).length === 0)
        out.push({ type: 'endPhase' });
    }
  }
  if (s.kind === 'economic' && s.pending.includes(player)) {
    out.push(...economicLegal(ctx, g, player), { type: 'endPhase' });
  }
  if (s.kind === 'administration') out.push(...administrationLegal(ctx, g, player));
  // 14.3.2 (D-27): abandoning is offered only when allowed; taking it back always is.
  if (p.status === 'active' && s.kind !== 'entry' && (p.abandoning || mayAbandon(ctx, g, player)))
    out.push({ type: 'declareAbandon', abandon: !p.abandoning });
  out.push(...realmAnytimeLegal(ctx, g, player));
  if (g.undo?.orders.some((o) => o.actor === player)) out.push({ type: 'undo' });
  return out;
}
