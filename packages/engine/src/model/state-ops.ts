/** Small immutable updates used by the rule modules; each returns a new state. */
import type { GameEvent } from './events.ts';
import type { AreaId, PlayerId, UnitId } from './ids.ts';
import { asUnitId } from './ids.ts';
import { carryUnitList } from './queries.ts';
import type { GameStateCore, PlayerState } from './state.ts';
import type { Unit, UnitKind } from './units.ts';

export type Game = GameStateCore;

export interface Transition {
  readonly state: Game;
  readonly events: GameEvent[];
}

/** A step of a kingdom's or empire's administration: `choice` set while someone must answer (4.6). */
export interface RealmStep extends Transition {
  readonly choice: { readonly type: 'realm' } | null;
  /** The player's administration ends here (its position is gone). */
  readonly stop?: boolean;
}

/** A copy of the game with one player changed. */
export const updatePlayer = (g: Game, id: PlayerId, f: (p: PlayerState) => PlayerState): Game => ({
  ...g,
  players: g.players.map((p) => (p.id === id ? f(p) : p)),
});

/** A copy of the game with a new unit (a fresh id), and that id. */
export const addUnit = (
  g: Game,
  owner: PlayerId,
  kind: UnitKind,
  area: AreaId,
  extra: Partial<Pick<Unit, 'inverted'>> = {},
): [Game, UnitId] => {
  const id = asUnitId(`u${g.nextUnit}`);
  const unit: Unit = { id, owner, kind, area, ...extra };
  const units = { ...g.units, [id]: unit };
  // A new key goes last; an existing one (never, ids are fresh) keeps its place.
  carryUnitList(g.units, units, Object.hasOwn(g.units, id) ? g.units[id] : undefined, unit);
  return [{ ...g, nextUnit: g.nextUnit + 1, units }, id];
};

/** A copy of the game without these units. */
export const removeUnits = (g: Game, ids: readonly UnitId[]): Game => {
  if (ids.length === 0) return g;
  return { ...g, units: omitKeys(g.units, ids) };
};

/**
 * A copy of a record without some keys, in the same key order. A copy made with `delete` drops to
 * V8's dictionary mode, which makes every later spread and `Object.values` of it several times
 * slower (units and garrisons are copied on almost every order; metric 9); a copy made by rest
 * destructuring stays a fast object.
 */
export function omitKeys<V>(record: Readonly<Record<string, V>>, keys: Iterable<string>): Record<string, V> {
  let out: Record<string, V> | null = null;
  for (const key of keys) {
    const from: Readonly<Record<string, V>> = out ?? record;
    if (!Object.hasOwn(from, key)) continue;
    const { [key]: _gone, ...rest }: Record<string, V> = from;
    out = rest;
  }
  return out ?? { ...record };
}

/** A copy of the game with one unit changed. */
export const patchUnit = (g: Game, id: UnitId, patch: Partial<Unit>): Game => {
  const u = g.units[id];
  if (!u) return g;
  const next = { ...u, ...patch };
  const units = { ...g.units, [id]: next };
  carryUnitList(g.units, units, u, next);
  return { ...g, units };
};

/** Add victory points and money for income (14.3.1: every kind of income is VP). */
export const gainIncome = (g: Game, id: PlayerId, amount: number): Game =>
  amount === 0
    ? g
    : updatePlayer(g, id, (p) => ({
        ...p,
        money: p.money + amount,
        cycle: p.cycle ? { ...p.cycle, vp: p.cycle.vp + amount } : p.cycle,
      }));
