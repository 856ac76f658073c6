/**
 * 5.1 and 9.3.4 on positions from random legal play on the real map: the movement search
 * (`destinations`) and the continuity groups (`tribeGroups`) give exactly what a plain reading of
 * the rules gives — a breadth-first search over (area, still all road) copying each path, and a
 * walk from every tribe area in sorted order — with the same paths and in the same order.
 */
import { describe, expect, it } from 'vitest';
import { tribeGroups } from '../../src/barbarian/continuity.ts';
import { destinations, mayEnterTerrain } from '../../src/barbarian/land-movement.ts';
import { createEngine, type GameState, simSetup } from '../../src/index.ts';
import type { EngineContext } from '../../src/model/context.ts';
import type { AreaId, PlayerId } from '../../src/model/ids.ts';
import { arabsAfricansInPlay, tribalSeaCrossingsFor } from '../../src/model/options.ts';
import { blocksPlayer, passableThrough, playerById, unitsByArea, unitsOf } from '../../src/model/queries.ts';
import { isShip, movementOf, type Unit } from '../../src/model/units.ts';
import { seededChooser } from '../../src/sim/policy.ts';
import { ctxOf } from '../../src/turn/apply-order.ts';
import { randomOrder } from '../helpers/play.ts';

/** 5.1, 11.3, 13.4: every end of a legal move, one shortest path each, in order of area id. */
function referenceDestinations(
  ctx: EngineContext,
  g: GameState,
  unit: Unit,
): { to: AreaId; path: AreaId[] }[] {
  if (isShip(unit.kind) || unit.inverted) return [];
  const ma = movementOf(unit.kind, ctx.options);
  if (ma <= 0) return [];
  const byArea = unitsByArea(g);
  const roadMA = ctx.map.landLinks(unit.area).some((l) => l.road) ? ma + 1 : ma;
  const garrisonStands = (a: AreaId) =>
    (byArea.get(a) ?? []).some((u) => u.kind === 'garrison' && u.owner === unit.owner && u.id !== unit.id);
  const seen = new Set<string>([`${unit.area}|true`]);
  const found = new Map<AreaId, AreaId[]>();
  let frontier = [{ area: unit.area, road: true, path: [] as AreaId[] }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const n of frontier) {
      for (const link of ctx.map.landLinks(n.area)) {
        const road = n.road && link.road;
        if (n.path.length + 1 > (road ? roadMA : ma)) continue;
        if (!mayEnterTerrain(ctx, g, unit, link.to)) continue;
        const blocked = blocksPlayer(ctx, g, link.to, unit.owner, byArea);
        if (blocked && !passableThrough(ctx, g, link.to, unit.owner, byArea)) continue;
        if (seen.has(`${link.to}|${road}`)) continue;
        seen.add(`${link.to}|${road}`);
        const path = [...n.path, link.to];
        if (!blocked && link.to !== unit.area && !garrisonStands(link.to) && !found.has(link.to))
          found.set(link.to, path);
        next.push({ area: link.to, road, path });
      }
    }
    frontier = next;
  }
  return [...found].map(([to, path]) => ({ to, path })).sort((a, b) => (a.to < b.to ? -1 : 1));
}

/** 9.3.4, 13.1.1, 13.2.2: the groups of tribe areas, each sorted, found from the sorted tribe areas. */
function referenceGroups(ctx: EngineContext, g: GameState, player: PlayerId): AreaId[][] {
  const people = playerById(g, player)?.cycle?.people;
  const units = unitsOf(g, player).filter((u) => u.kind !== 'leader');
  const occupied = new Set(units.map((u) => u.area));
  const tribeAreas = new Set(units.filter((u) => u.kind === 'tribe').map((u) => u.area));
  const linked = (a: AreaId): AreaId[] => [
    ...ctx.map.landLinks(a).map((l) => l.to),
    ...(people !== undefined && tribalSeaCrossingsFor(ctx.options, people)
      ? ctx.map
          .seasOf(a)
          .filter((s) => ctx.map.area(s)?.seaCrossingFor.includes(people))
          .flatMap((s) => ctx.map.shoresOf(s))
      : []),
    ...(arabsAfricansInPlay(ctx.options) &&
    (people === 'ARAB' || people === 'AFRICAN') &&
    ctx.map.area(a)?.aMarked
      ? ctx.map.aAreas
      : []),
  ];
  const seen = new Set<AreaId>();
  const groups: AreaId[][] = [];
  for (const start of [...tribeAreas].sort()) {
    if (seen.has(start)) continue;
    const reached = new Set<AreaId>([start]);
    const todo = [start];
    while (todo.length > 0)
      for (const n of linked(todo.pop()!))
        if (occupied.has(n) && !reached.has(n)) {
          reached.add(n);
          todo.push(n);
        }
    for (const a of reached) seen.add(a);
    groups.push([...reached].filter((a) => tribeAreas.has(a)).sort());
  }
  return groups;
}

describe('movement and continuity against a plain reading of 5.1 and 9.3.4', () => {
  it('every unit of every player, in positions of random play on the real map', () => {
    const engine = createEngine();
    let checkedUnits = 0;
    let split = 0;
    for (const seed of ['reference-a', 'reference-b']) {
      const created = engine.createGame(
        simSetup(seed, 6, { opt: { tribalSeaCrossings: true, arabsAfricans: seed.endsWith('b') } }),
      );
      if (!created.ok) throw new Error(created.error.code);
      let state = created.value;
      const choose = seededChooser(seed);
      for (let i = 0; i < 3000; i++) {
        const waiting = engine.waitingFor(state);
        if (waiting.length === 0) break;
        const player = waiting[choose(waiting.length)]!;
        const order = randomOrder(engine, state, player, choose);
        if (!order) break;
        const r = engine.applyOrder(state, player, order);
        if (!r.ok) throw new Error(r.error.code);
        state = r.value.state;
        if (i % 10 !== 0) continue;
        const ctx = ctxOf(engine.map, state);
        for (const p of state.players) {
          const groups = tribeGroups(ctx, state, p.id);
          expect(groups).toEqual(referenceGroups(ctx, state, p.id));
          if (groups.length > 1) split++;
        }
        for (const u of Object.values(state.units)) {
          expect(destinations(ctx, state, u, unitsByArea(state))).toEqual(
            referenceDestinations(ctx, state, u),
          );
          checkedUnits++;
        }
      }
    }
    // The positions held units to move, and hordes cut into several groups (whose order is compared too).
    expect(checkedUnits).toBeGreaterThan(3000);
    expect(split).toBeGreaterThan(10);
  }, 60_000);
});
