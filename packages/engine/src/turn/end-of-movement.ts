/**
 * End of the movement phase (4.3.3): surplus non-inverted tribes go (9.2, one per area), then
 * stacking (6) is enforced with the owner choosing what to remove; then unit creation (4.3.4).
 */

import type { EngineContext } from '../model/context.ts';
import { rollDie } from '../model/dice.ts';
import type { GameEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import type { CoreLegalOrder } from '../model/legal-orders.ts';
import { countersLimited } from '../model/options.ts';
import { playerById, unitsOf } from '../model/queries.ts';
import { err, ok, type Result } from '../model/result.ts';
import { isLegalStack } from '../model/stacking.ts';
import { addUnit, type Game, patchUnit, removeUnits, type Transition } from '../model/state-ops.ts';
import { exceedsCounterMix, type Unit, type UnitKind } from '../model/units.ts';
import { CREATION_TABLE, creationResult, peopleOfStartPosition } from '../tables/creation.ts';

const byAreaOf = (units: readonly Unit[]): ReadonlyMap<AreaId, readonly Unit[]> => {
  const m = new Map<AreaId, Unit[]>();
  for (const u of units) {
    const l = m.get(u.area);
    if (l) l.push(u);
    else m.set(u.area, [u]);
  }
  return m;
};

/** 9.2: after movement, only one non-inverted tribe may stay in an area; the rest are removed. */
export function removeSurplusTribes(g: Game, player: PlayerId): Transition {
  const extra: UnitId[] = [];
  for (const units of byAreaOf(unitsOf(g, player)).values()) {
    const tribes = units
      .filter((u) => u.kind === 'tribe' && !u.inverted)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    for (const t of tribes.slice(1)) extra.push(t.id);
  }
  const events: GameEvent[] = extra.length
    ? [{ type: 'unitsRemoved', player, units: extra, reason: 'overstack' }]
    : [];
  return { state: removeUnits(g, extra), events };
}

/** 6: the player's areas whose stack is illegal. */
export function overstackedAreas(g: Game, player: PlayerId): AreaId[] {
  const out: AreaId[] = [];
  for (const [area, units] of byAreaOf(unitsOf(g, player))) {
    if (!isLegalStack(units.map((u) => ({ kind: u.kind, inverted: u.inverted ?? false })))) out.push(area);
  }
  return out.sort();
}

/** 6: the units an overstacked player may remove. */
export function stackingLegal(g: Game, player: PlayerId): CoreLegalOrder[] {
  const areas = overstackedAreas(g, player);
  return unitsOf(g, player)
    .filter((u) => areas.includes(u.area) && u.kind !== 'leader')
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((u) => ({ type: 'disband', unit: u.id }));
}

/** 6: the owner removes one unit from an overstacked area. */
export function applyDisband(g: Game, player: PlayerId, unit: UnitId): Result<Transition> {
  const u = g.units[unit];
  if (!u) return err('order/unknown_unit', { unit });
  if (u.owner !== player) return err('order/not_your_unit', { unit });
  if (!overstackedAreas(g, player).includes(u.area) || u.kind === 'leader') {
    return err('order/not_overstacked', { unit, area: u.area });
  }
  return ok({
    state: removeUnits(g, [unit]),
    events: [{ type: 'unitsRemoved', player, units: [unit], reason: 'overstack' }],
  });
}

/** 9.1 / C.6: would these new units need counters the player's colour has run out of? */
const exhausted = (ctx: EngineContext, g: Game, player: PlayerId, kinds: readonly UnitKind[]): boolean =>
  countersLimited(ctx.options) && exceedsCounterMix([...unitsOf(g, player).map((u) => u.kind), ...kinds]);

/**
 * 4.3.4 / 9.1: one die per inverted pair on the people's row; a ship created inland is lost;
 * a result whose counters have run out is rerolled (up to 30 times, then the pair is lost).
 */
export function createUnits(ctx: EngineContext, g: Game, player: PlayerId): Transition {
  const people = peopleOfStartPosition(playerById(g, player)?.cycle?.position ?? '');
  const events: GameEvent[] = [];
  let s = g;
  const pairs = [...byAreaOf(unitsOf(g, player).filter((u) => u.inverted)).entries()].sort((a, b) =>
    a[0] < b[0] ? -1 : 1,
  );
  for (const [area, tribes] of pairs) {
    const [a, b] = tribes;
    if (!a || !b || !people) {
      for (const t of tribes) s = patchUnit(s, t.id, { inverted: false });
      continue;
    }
    s = removeUnits(
      s,
      tribes.map((t) => t.id),
    );
    const rerolls: number[] = [];
    let kinds: readonly UnitKind[] = [];
    let die = 0;
    for (let i = 0; i < 30; i++) {
      const r = rollDie(s);
      s = r.state;
      die = r.value;
      kinds = creationResult(CREATION_TABLE, people, die);
      if (!exhausted(ctx, s, player, kinds)) break;
      rerolls.push(die);
      kinds = [];
    }
    const coastal = ctx.map.area(area)?.coastal ?? false;
    const lost = kinds.filter((k) => k === 'ship' && !coastal);
    const ids: UnitId[] = [];
    for (const k of kinds.filter((k) => !(k === 'ship' && !coastal))) {
      const [next, id] = addUnit(s, player, k, area);
      s = next;
      ids.push(id);
    }
    events.push({
      type: 'unitCreated',
      player,
      pair: [a.id, b.id],
      area,
      die,
      units: ids,
      kinds: kinds.filter((k) => !(k === 'ship' && !coastal)),
      lost,
      rerolls,
    });
  }
  return { state: s, events };
}
