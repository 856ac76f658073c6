/** The defaults for a missed deadline: hold, tax without pillage, the first legal choice otherwise. */

import type { GameEvent } from '../model/events.ts';
import type { PlayerId, UnitId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { MapIndex } from '../model/map-index.ts';
import type { CombatOrder, Order } from '../model/orders.ts';
import type { GameState, GameStateCore } from '../model/state.ts';
import { isRealmAnytimeOrder } from '../realm/diplomacy-orders.ts';
import { applyWithUndo, ctxOf } from './apply-order.ts';
import { expand } from './concrete-orders.ts';
import { legalOrdersOf, waitingFor } from './legal.ts';
import { supportMovesOwed } from './movement-phase.ts';

/** 4: the step a state stands in, as a key (turn, step, player, phase). */
const stepKey = (g: GameStateCore): string => {
  const s = g.step;
  if (s.kind === 'playerTurn') return `${g.turn}|p|${s.player}|${s.phase}`;
  if (s.kind === 'administration') return `${g.turn}|a|${s.player}|${s.choice?.type ?? ''}`;
  return `${g.turn}|${s.kind}`;
};

/** Defaults at a missed deadline: hold, tax without pillage, the first legal choice otherwise. */
function defaultOrder(map: MapIndex, g: GameState, legal: LegalOrder[], player: PlayerId): Order | null {
  const s = g.step;
  // 11.5: an unsupported empire unit is moved to its first supported destination.
  const owed = s.kind === 'playerTurn' ? supportMovesOwed(ctxOf(map, g), g, player) : [];
  const regain = legal.find((o) => o.type === 'move' && owed.includes(o.unit));
  if (regain?.type === 'move' && regain.destinations[0])
    return { type: 'move', unit: regain.unit, path: regain.destinations[0].path };
  if (s.kind === 'entry') {
    // 13.2.3: the army the engine used to pick is the first offered.
    const army = legal.find((o) => o.type === 'persianArmy');
    if (army?.type === 'persianArmy') return { type: 'persianArmy', units: army.units, leader: army.leader };
    const c = legal.find((o) => o.type === 'chooseStart');
    return c && c.type === 'chooseStart'
      ? { type: 'chooseStart', position: c.position, area: c.areas[0]! }
      : null;
  }
  if (legal.some((o) => o.type === 'endPhase')) return { type: 'endPhase' };
  // Attacks are voluntary (7.1): never one by default; no advance or pursuit either. A naval
  // landing's attack is compulsory (8.2): the landing force alone attacks.
  const landing = legal.find((o) => o.type === 'combatAttack' && o.landing === true);
  if (landing) return expand(landing, () => 0);
  if (legal.some((o) => o.type === 'combatStop')) return { type: 'combatStop' } as CombatOrder;
  if (legal.some((o) => o.type === 'combatDone')) return { type: 'combatDone' } as CombatOrder;
  for (const o of legal) {
    switch (o.type) {
      case 'disband':
        return { type: 'disband', unit: o.unit };
      case 'keepGroup': {
        const biggest = [...legal]
          .filter((x) => x.type === 'keepGroup')
          .sort((a, b) => groupSize(b) - groupSize(a))[0];
        return biggest && biggest.type === 'keepGroup' ? { type: 'keepGroup', area: biggest.area } : null;
      }
      case 'removeUnits': {
        const byTribeFirst = [...o.candidates].sort(
          (a, b) => tribeRank(g, a) - tribeRank(g, b) || (a < b ? -1 : 1),
        );
        return { type: 'removeUnits', units: byTribeFirst.slice(0, o.count) };
      }
      case 'foundKingdom':
        return { type: 'foundKingdom', leaderWith: o.leaderWith[0] ?? null, capital: o.capital[0] ?? null };
      default:
        // A pending combat choice (retreat path, exchange losses): its first option. Realm legal
        // orders are concrete already.
        if (o.type.startsWith('combat') && o.type !== 'combatAttack') return expand(o, () => 0);
        // Standing choices (interception, tribute, leases, ransoms) are never a default.
        if (o.type.startsWith('realm') && !isRealmAnytimeOrder(o)) return o as Order;
    }
  }
  return null;
}

const groupSize = (o: LegalOrder): number => (o.type === 'keepGroup' ? o.group.length : 0);

const tribeRank = (g: GameState, id: UnitId): number => (g.units[id]?.kind === 'tribe' ? 0 : 1);

/** One default order of a missed deadline, played: who gave it, and the state and events it left. */
export interface PlayedDefault {
  readonly actor: PlayerId;
  readonly order: Order;
  readonly state: GameState;
  readonly events: GameEvent[];
}

/** 4: the defaults that finish this player's part of the current step (not later steps), played in order. */
function playDefaults(map: MapIndex, state: GameState, player: PlayerId): PlayedDefault[] {
  const out: PlayedDefault[] = [];
  let s = state;
  const key = stepKey(state);
  for (let i = 0; i < 200 && waitingFor(s).includes(player) && stepKey(s) === key; i++) {
    const o = defaultOrder(map, s, legalOrdersOf(map, s, player), player);
    if (!o) break;
    const r = applyWithUndo(map, s, player, o);
    if (!r.ok) break;
    s = r.value.state;
    out.push({ actor: player, order: o, state: s, events: r.value.events });
  }
  return out;
}

/** 4: the defaults that finish this player's part of the current step (not later steps), in order. */
export function timeoutOrdersOf(map: MapIndex, state: GameState, player: PlayerId): Order[] {
  return playDefaults(map, state, player).map((d) => d.order);
}

/**
 * A missed deadline: each of `players` in turn gets its defaults, each seeing the state the
 * previous left; every order is played once and returned with what it left, ready to commit.
 */
export function missedDeadlineOf(
  map: MapIndex,
  state: GameState,
  players: readonly PlayerId[],
): PlayedDefault[] {
  const out: PlayedDefault[] = [];
  let s = state;
  for (const p of players) {
    const played = playDefaults(map, s, p);
    out.push(...played);
    s = played.at(-1)?.state ?? s;
  }
  return out;
}
