/**
 * 5.2 Where ships go: through sea areas, along coasts (land borders that share a coastline), by
 * white arrows, across straits by red arrows (5.3), and into or out of coastal areas by a coast.
 * Two-coast areas (Athens, Corinth, …) may not be crossed from one coast to the other in one turn.
 * Compiled once per map.
 */
import type { EngineContext } from '../model/context.ts';
import type { AreaId } from '../model/ids.ts';
import type { MapIndex } from '../model/map-index.ts';

type ShipStepKind = 'coast' | 'sea' | 'whiteArrow' | 'shoreline' | 'redArrow';

export interface ShipStep {
  readonly to: AreaId;
  readonly via: ShipStepKind;
}

interface Coasted {
  readonly coasts?: readonly { readonly id: string; readonly seas: readonly string[] }[];
}
interface Shorelined {
  readonly shoreline?: boolean;
}

const cache = new WeakMap<MapIndex, Map<AreaId, ShipStep[]>>();

const isSea = (map: MapIndex, a: AreaId): boolean => map.area(a)?.kind === 'sea';

/** 5.2: the ship steps out of every area (sorted, deterministic). */
export function shipGraph(map: MapIndex): Map<AreaId, ShipStep[]> {
  const hit = cache.get(map);
  if (hit) return hit;
  const g = new Map<AreaId, ShipStep[]>();
  const seas = map.areaIds.filter((a) => isSea(map, a));
  for (const a of map.areaIds) {
    const steps: ShipStep[] = [];
    if (isSea(map, a)) {
      for (const l of map.shoresOf(a)) steps.push({ to: l, via: 'coast' });
      for (const b of seas) {
        if (b === a) continue;
        const e = map.edge(a, b);
        if (e?.kind === 'sea') steps.push({ to: b, via: 'sea' });
        else if (e?.kind === 'whiteArrow' || e?.whiteArrow) steps.push({ to: b, via: 'whiteArrow' });
      }
    } else if (map.area(a)?.coastal) {
      for (const s of map.seasOf(a)) steps.push({ to: s, via: 'coast' });
      for (const l of map.landLinks(a)) {
        // 5.3 / 2.1 (D-24): a red arrow joins two shores across a strait; a ship following it
        // enters no sea area (no sinking roll, no interception).
        if (l.redArrow) {
          if (map.area(l.to)?.coastal === true) steps.push({ to: l.to, via: 'redArrow' });
          continue;
        }
        const e = map.edge(a, l.to) as (Shorelined & object) | undefined;
        const shore =
          e?.shoreline ??
          (map.area(l.to)?.coastal === true && map.seasOf(a).some((s) => map.seasOf(l.to).includes(s)));
        if (shore) steps.push({ to: l.to, via: 'shoreline' });
      }
      for (const b of map.areaIds) {
        const e = b !== a ? map.edge(a, b) : undefined;
        if (e && (e.kind === 'whiteArrow' || e.whiteArrow) && !isSea(map, b))
          steps.push({ to: b, via: 'whiteArrow' });
      }
    }
    steps.sort((x, y) => (x.to < y.to ? -1 : x.to > y.to ? 1 : 0));
    g.set(a, steps);
  }
  cache.set(map, g);
  return g;
}

/** 5.2: the coast (by id) of a land area on which a sea lies; null if the area has one coast. */
function coastOf(ctx: EngineContext, land: AreaId, sea: AreaId): string | null {
  const coasts = (ctx.map.area(land) as Coasted | undefined)?.coasts ?? [];
  if (coasts.length < 2) return null;
  return coasts.find((c) => c.seas.includes(sea))?.id ?? null;
}

/** The coast a shoreline step between two land areas runs along (a sea both touch). */
function shorelineCoast(ctx: EngineContext, land: AreaId, other: AreaId): string | null {
  const shared = ctx.map.seasOf(land).find((s) => ctx.map.seasOf(other).includes(s));
  return shared ? coastOf(ctx, land, shared) : null;
}

/** The coast used to enter or leave `land` from or to the neighbouring `other` area. */
function coastUsed(ctx: EngineContext, land: AreaId, other: AreaId): string | null {
  return isSea(ctx.map, other) ? coastOf(ctx, land, other) : shorelineCoast(ctx, land, other);
}

/** Why a ship path (start excluded) is illegal, or null (5.2). */
export function shipPathProblem(
  ctx: EngineContext,
  start: AreaId,
  path: readonly AreaId[],
  startedTurnHere = true,
): 'notAStep' | 'endsAtSea' | 'otherCoast' | 'empty' | null {
  if (path.length === 0) return 'empty';
  const g = shipGraph(ctx.map);
  let at = start;
  let enteredBy: string | null = startedTurnHere ? null : null;
  for (let i = 0; i < path.length; i++) {
    const to = path[i]!;
    if (!(g.get(at) ?? []).some((s) => s.to === to)) return 'notAStep';
    if (!isSea(ctx.map, at) && i > 0) {
      const out = coastUsed(ctx, at, to);
      if (enteredBy && out && out !== enteredBy) return 'otherCoast';
    }
    enteredBy = isSea(ctx.map, to) ? null : coastUsed(ctx, to, at);
    at = to;
  }
  return isSea(ctx.map, at) ? 'endsAtSea' : null;
}

/** 5.3 / AMBIG-50: the sea areas a path enters (re-entries counted unless switched off). */
export function seaAreasEntered(ctx: EngineContext, path: readonly AreaId[]): number {
  const seas = path.filter((a) => isSea(ctx.map, a));
  return ctx.options.cfg.countReentries ? seas.length : new Set(seas).size;
}

/**
 * 5.2: every coastal area a ship can end in with at most `ma` steps, with a shortest path
 * (fewest sea areas first, then fewest steps). `blocked` areas may not be entered (unfriendly units),
 * except the `landable` ones as the last step from a sea area (a naval landing, 8.2).
 */
export function shipDestinations(
  ctx: EngineContext,
  start: AreaId,
  ma: number,
  blocked: (a: AreaId) => boolean = () => false,
  landable: (a: AreaId) => boolean = () => false,
): { to: AreaId; path: AreaId[]; seas: number }[] {
  const g = shipGraph(ctx.map);
  type Node = { at: AreaId; path: AreaId[]; coast: string | null };
  const best = new Map<AreaId, { path: AreaId[]; seas: number }>();
  let frontier: Node[] = [{ at: start, path: [], coast: null }];
  const seen = new Set<string>([`${start}|`]);
  for (let d = 1; d <= ma && frontier.length; d++) {
    const next: Node[] = [];
    for (const n of frontier) {
      for (const s of g.get(n.at) ?? []) {
        if (blocked(s.to)) {
          if (isSea(ctx.map, n.at) && !isSea(ctx.map, s.to) && landable(s.to)) {
            const path = [...n.path, s.to];
            const seas = seaAreasEntered(ctx, path);
            const old = best.get(s.to);
            if (!old || seas < old.seas) best.set(s.to, { path, seas });
          }
          continue;
        }
        if (!isSea(ctx.map, n.at) && n.path.length > 0) {
          const out = coastUsed(ctx, n.at, s.to);
          if (n.coast && out && out !== n.coast) continue;
        }
        const coast = isSea(ctx.map, s.to) ? null : coastUsed(ctx, s.to, n.at);
        const key = `${s.to}|${coast ?? ''}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const path = [...n.path, s.to];
        next.push({ at: s.to, path, coast });
        if (!isSea(ctx.map, s.to) && s.to !== start) {
          const seas = seaAreasEntered(ctx, path);
          const old = best.get(s.to);
          if (!old || seas < old.seas) best.set(s.to, { path, seas });
        }
      }
    }
    frontier = next;
  }
  return [...best.entries()].map(([to, v]) => ({ to, ...v })).sort((a, b) => (a.to < b.to ? -1 : 1));
}
