/** Rules that depend on the real map's data (@bke/map): the Byzantium–Nicaea road (5.1), the set-up (14.3). */
import { loadMap } from '@bke/map';
import { describe, expect, it } from 'vitest';
import { destinations } from '../../src/barbarian/land-movement.ts';
import { type AreaId, indexMap, type MapIndex } from '../../src/index.ts';
import { unitsByArea } from '../../src/model/queries.ts';
import { initialNeutrals } from '../../src/scenario/neutrals.ts';
import { A, scenario } from '../helpers/scenario.ts';

const map = loadMap();

/** Breadth-first step counts from `from`, over all land links or over road links only. */
function distances(index: MapIndex, from: AreaId, roadOnly: boolean): Map<AreaId, number> {
  const d = new Map<AreaId, number>([[from, 0]]);
  let frontier = [from];
  for (let k = 1; frontier.length; k++) {
    const next: AreaId[] = [];
    for (const a of frontier)
      for (const l of index.landLinks(a))
        if ((!roadOnly || l.road) && !d.has(l.to)) {
          d.set(l.to, k);
          next.push(l.to);
        }
    frontier = next;
  }
  return d;
}

describe('the real map', () => {
  it('5.1: the road continues from Byzantium to Nicaea: the road bonus carries a unit across the strait', () => {
    const withRoad = indexMap(map);
    const flatMap = {
      ...map,
      edges: map.edges.map((e) => (e.kind === 'redArrow' ? { ...e, road: false } : e)),
    };
    const withoutRoad = indexMap(flatMap);
    expect(withRoad.landLinks(A('byzantium')).find((l) => l.to === 'nicaea')).toMatchObject({
      road: true,
      redArrow: true,
    });
    // Find a start on the road near the strait and an area only the crossing road brings within MA + 1.
    let found: { start: AreaId; target: AreaId } | null = null;
    for (const start of [
      A('byzantium'),
      A('nicaea'),
      ...withRoad.landLinks(A('nicaea')).map((l) => l.to),
      ...withRoad.landLinks(A('byzantium')).map((l) => l.to),
    ]) {
      const road = distances(withRoad, start, true);
      const flatRoad = distances(withoutRoad, start, true);
      const any = distances(withRoad, start, false);
      const target = [...road].find(
        ([t, k]) => k === 4 && any.get(t) === 4 && (flatRoad.get(t) ?? 99) > 4,
      )?.[0];
      if (target) {
        found = { start, target };
        break;
      }
    }
    expect(found).not.toBeNull();
    if (!found) return;
    const reach = (m: typeof map) => {
      const s = scenario({
        map: m,
        players: [{ id: 'a', position: 'GERMAN 1' }],
        units: [['a', 'barbarianInfantry', found!.start]],
        neutrals: {},
      });
      return destinations(s.ctx, s.state, s.state.units.u1!, unitsByArea(s.state)).map((d) => d.to);
    };
    expect(reach(map)).toContain(found.target);
    expect(reach(flatMap)).not.toContain(found.target);
  });

  it('14.3: a neutral garrison in every non-optional city and in garrison-symbol areas', () => {
    const s = scenario({ map, players: [] });
    const n = initialNeutrals(s.ctx);
    const cities = map.areas.filter((a) => a.city && !a.city.optional && a.insideEmpire);
    for (const c of cities) expect(n[c.id], c.id).toBeDefined();
    expect(n.byzantium?.strength).toBe(4);
    const optional = map.areas.filter((a) => a.city?.optional).map((a) => a.id);
    for (const id of optional) expect(n[id]).toBeUndefined();
  });
});
