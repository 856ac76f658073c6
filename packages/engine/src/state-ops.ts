/** Small immutable updates used by the rule modules; each returns a new state. */
import type { GameEvent } from './events.ts';
import type { AreaId, PlayerId, UnitId } from './ids.ts';
import { asUnitId } from './ids.ts';
import type { GameStateCore, PlayerState } from './state.ts';
import type { Unit, UnitKind } from './units.ts';

export type Game = GameStateCore;

export interface Transition {
  readonly state: Game;
  readonly events: GameEvent[];
}

export const updatePlayer = (g: Game, id: PlayerId, f: (p: PlayerState) => PlayerState): Game => ({
  ...g,
  players: g.players.map((p) => (p.id === id ? f(p) : p)),
});

export const addUnit = (
  g: Game,
  owner: PlayerId,
  kind: UnitKind,
  area: AreaId,
  extra: Partial<Pick<Unit, 'inverted'>> = {},
): [Game, UnitId] => {
  const id = asUnitId(`u${g.nextUnit}`);
  const unit: Unit = { id, owner, kind, area, ...extra };
  return [{ ...g, nextUnit: g.nextUnit + 1, units: { ...g.units, [id]: unit } }, id];
};

export const removeUnits = (g: Game, ids: readonly UnitId[]): Game => {
  if (ids.length === 0) return g;
  const units = { ...g.units };
  for (const id of ids) delete units[id];
  return { ...g, units };
};

export const patchUnit = (g: Game, id: UnitId, patch: Partial<Unit>): Game => {
  const u = g.units[id];
  if (!u) return g;
  return { ...g, units: { ...g.units, [id]: { ...u, ...patch } } };
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
