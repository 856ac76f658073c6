/** Helpers for tests: deep freeze, random legal play, invariant checks. */

import type { Engine, GameState, Order, PlayerId } from '../../src/index.ts';
import { type Chooser, expand } from '../../src/turn/concrete-orders.ts';

export function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as Record<string, unknown>)) deepFreeze(x);
  }
  return v;
}

/** One random legal order for a waiting player (undo and abandon rarely). */
export function randomOrder(
  engine: Engine,
  state: GameState,
  player: PlayerId,
  choose: Chooser,
): Order | null {
  const legal = engine.legalOrders(state, player);
  const undo = legal.find((o) => o.type === 'undo');
  if (undo && choose(20) === 0) return { type: 'undo' };
  const rest = legal.filter((o) => o.type !== 'undo' && (o.type !== 'declareAbandon' || choose(200) === 0));
  for (let tries = 0; tries < 5 && rest.length; tries++) {
    const o = expand(rest[choose(rest.length)]!, choose);
    if (o) return o;
  }
  return null;
}

/** Invariants every reachable state keeps; returns the problems found. */
export function invariantProblems(state: GameState, previousVp: Map<string, number>): string[] {
  const problems: string[] = [];
  const owners = new Map<string, string>();
  for (const u of Object.values(state.units)) {
    if (u.kind === 'leader') continue;
    const o = owners.get(u.area);
    if (o && o !== u.owner) problems.push(`two owners in ${u.area}`);
    owners.set(u.area, u.owner);
    if (state.neutrals[u.area]) problems.push(`unit ${u.id} shares ${u.area} with a neutral garrison`);
  }
  for (const p of state.players) {
    if (p.money < 0) problems.push(`${p.id} money ${p.money}`);
    const total = (p.cycle?.vp ?? 0) + p.finished.totalVp;
    if (total < (previousVp.get(p.id) ?? 0)) problems.push(`${p.id} VP went down`);
    previousVp.set(p.id, total);
  }
  return problems;
}
