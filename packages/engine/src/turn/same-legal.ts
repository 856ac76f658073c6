/**
 * Whether a player's legal orders can have changed between two states, told without listing them
 * (a server sends each player its orders again only when they change, after every order of anyone).
 *
 * The legal orders (legal.ts with consequences.ts) are a function of the map and the state alone.
 * They read every part of the state except these, which are compared more finely here:
 * - `version`: never read; it only numbers the state (stale orders are refused by it).
 * - `undo`: read only as "the player has an order in the undo log" (4, the undo policy).
 * - `step` in the economic phase, where the deciders act at once and independently (4.5): another
 *   player's confirmation and pillage choices (9.5). `pending` is read only as "the player is still
 *   to confirm", `pillage` only for the player's own chosen cities.
 * - `realm.players`: another kingdom's or empire's economic plan (4.5.2–4.5.3), read only when the
 *   phase resolves (its collection).
 * Everything else is compared by identity: states are never mutated, so the same object is the
 * same content. A part rebuilt with equal content counts as changed: the answer may be "changed"
 * when nothing did, never "unchanged" when something did.
 */
import type { PlayerId } from '../model/ids.ts';
import type { RealmPlayer, RealmState } from '../model/realm.ts';
import type { GameState, Step } from '../model/state.ts';

type Parts = Readonly<Record<string, unknown>>;

/** True only if `player`'s legal orders in `after` are the same as in `before`. */
export function sameLegalOrders(before: GameState, after: GameState, player: PlayerId): boolean {
  if (before === after) return true;
  const a = before as unknown as Parts;
  const b = after as unknown as Parts;
  for (const k in b) if (!(k in a) && b[k] !== undefined) return false;
  for (const k in a) {
    const x = a[k];
    const y = b[k];
    if (x === y || k === 'version') continue;
    if (k === 'undo') {
      if (hasUndo(before, player) !== hasUndo(after, player)) return false;
    } else if (k === 'step') {
      if (!sameStepFor(before.step, after.step, player)) return false;
    } else if (k === 'realm') {
      if (!sameRealmFor(before.realm, after.realm, player)) return false;
    } else return false;
  }
  return true;
}

/** 4: the undo order is offered when the player has an order in the log. */
const hasUndo = (g: GameState, player: PlayerId): boolean =>
  g.undo?.orders.some((o) => o.actor === player) ?? false;

/** 4.5, 9.5: the economic step as one player's orders see it. */
function sameStepFor(s: Step, t: Step, player: PlayerId): boolean {
  if (s.kind !== 'economic' || t.kind !== 'economic') return false;
  const a = s as unknown as Parts;
  const b = t as unknown as Parts;
  for (const k in b) if (!(k in a) && b[k] !== undefined) return false;
  for (const k in a) {
    if (a[k] === b[k]) continue;
    if (k === 'pending') {
      if (s.pending.includes(player) !== t.pending.includes(player)) return false;
    } else if (k === 'pillage') {
      if (s.pillage[player] !== t.pillage[player]) return false;
    } else return false;
  }
  return true;
}

/** 4.5.2–4.5.3: the realm sub-state as one player's orders see it (others' plans left out). */
function sameRealmFor(r: RealmState | undefined, q: RealmState | undefined, player: PlayerId): boolean {
  if (!r || !q) return false;
  const a = r as unknown as Parts;
  const b = q as unknown as Parts;
  for (const k in b) if (!(k in a) && b[k] !== undefined) return false;
  for (const k in a) {
    if (a[k] === b[k]) continue;
    if (k !== 'players') return false;
    for (const id in q.players) if (!(id in r.players)) return false;
    for (const id in r.players) {
      const x = r.players[id];
      const y = q.players[id];
      if (x === y) continue;
      if (id === player || !x || !y || !samePlanAside(x, y)) return false;
    }
  }
  return true;
}

/** Two realm entries of another player alike but for their economic plan. */
function samePlanAside(x: RealmPlayer, y: RealmPlayer): boolean {
  const a = x as unknown as Parts;
  const b = y as unknown as Parts;
  for (const k in b) if (!(k in a) && b[k] !== undefined) return false;
  for (const k in a) if (a[k] !== b[k] && k !== 'plan') return false;
  return true;
}
