/**
 * 11.7 The Rebellion Table (2d6, B.3) and the arithmetic of its results: Financial Disaster
 * (D-30), Mercenaries Go Home (D-29), Civil Disorder (D-11) and its city choice, Army Mutiny
 * (AMBIG-39), the provinces that may revolt (D-32) and the reach of a defection (AMBIG-37).
 */
import type { EngineContext } from '../model/context.ts';
import type { AreaId } from '../model/ids.ts';
import type { Options } from '../model/options.ts';
import type { Stage } from '../model/people.ts';
import { REBELLION_RESULTS, type RebellionResult } from '../model/realm.ts';

/** 11.7.2: the result of a 2d6 roll. */
export function rebellionResult(roll: number): RebellionResult {
  const r = REBELLION_RESULTS[roll as keyof typeof REBELLION_RESULTS];
  if (!r) throw new Error(`no rebellion result for ${roll}`);
  return r;
}

/**
 * 11.7.2 result 3 (D-30, AMBIG-40): the treasury is lost; only if it was already empty does the
 * player lose 1d6 (4)-0 garrisons (all it has if fewer).
 */
export function financialDisaster(
  treasury: number,
  garrisons: number,
  die: number,
): { treasury: 0; garrisonsLost: number } {
  return { treasury: 0, garrisonsLost: treasury > 0 ? 0 : Math.min(die, garrisons) };
}

/** 11.7.2 result 8 (D-29): how many 4-2s go home: all for an empire, one for a kingdom. */
export function mercenariesGoHome(stage: Stage, infantry: number): number {
  return stage === 'empire' ? infantry : stage === 'kingdom' ? Math.min(1, infantry) : 0;
}

/** 11.7.2 result 7 (D-28): does a Complete Collapse end the position? Only an empire's. */
export function collapses(stage: Stage): boolean {
  return stage === 'empire';
}

/**
 * 11.7.2 result 6 (D-11, AMBIG-8): the tax value (or city count) that must revolt:
 * ⌈percent × base⌉, the base excluding the capital's +2.
 */
export function civilDisorderTarget(percent: number, base: number): number {
  return Math.ceil((percent * base) / 100);
}

/** 11.7.2 result 9 (AMBIG-39): units lost to mutiny: ⌈die × 10 % × combat units⌉. */
export function mutinyLoss(die: number, combatUnits: number): number {
  return Math.ceil((die * combatUnits) / 10);
}

/** A city the player owns and that may revolt, with what the procedure needs to know. */
export interface RevoltCity {
  readonly area: AreaId;
  readonly value: number;
  /** Held by some friendly unit; `elite` when a 5-3 holds it (revolts last). */
  readonly held: 'empty' | 'units' | 'elite';
}

const tierOf = (c: RevoltCity): number => (c.held === 'empty' ? 0 : c.held === 'units' ? 1 : 2);

/**
 * 11.7.2 result 6 procedure (AMBIG-8): is this selection of cities a legal revolt? Unoccupied
 * cities first, then occupied ones, elite-held last (a later tier only once the earlier are
 * all taken); the total reaches the target (or everything eligible goes), and within the last
 * tier used no city could be spared.
 */
export function isLegalRevolt(
  eligible: readonly RevoltCity[],
  chosen: readonly AreaId[],
  target: number,
  measure: (c: RevoltCity) => number = (c) => c.value,
): boolean {
  if (new Set(chosen).size !== chosen.length) return false;
  const picked = chosen.map((a) => eligible.find((c) => c.area === a));
  if (picked.some((c) => c === undefined)) return false;
  const sel = picked as RevoltCity[];
  const total = sel.reduce((s, c) => s + measure(c), 0);
  const all = eligible.reduce((s, c) => s + measure(c), 0);
  if (target <= 0) return sel.length === 0;
  if (total < Math.min(target, all)) return false;
  if (sel.length === 0) return all === 0;
  const last = Math.max(...sel.map(tierOf));
  for (const c of eligible) if (tierOf(c) < last && !chosen.includes(c.area)) return false;
  return sel.filter((c) => tierOf(c) === last).every((c) => total - measure(c) < target);
}

/**
 * 11.7.2 result 6, AMBIG-8: A legal revolt chosen for the player who gave none: tier by tier, largest values first
 * until the target is reached, then spare what can be spared.
 */
export function defaultRevolt(
  eligible: readonly RevoltCity[],
  target: number,
  measure: (c: RevoltCity) => number = (c) => c.value,
): AreaId[] {
  if (target <= 0) return [];
  const sorted = [...eligible].sort(
    (a, b) => tierOf(a) - tierOf(b) || measure(b) - measure(a) || (a.area < b.area ? -1 : 1),
  );
  const out: RevoltCity[] = [];
  let total = 0;
  for (const c of sorted) {
    if (total >= target) break;
    out.push(c);
    total += measure(c);
  }
  const last = Math.max(0, ...out.map(tierOf));
  for (const c of [...out].sort((a, b) => measure(a) - measure(b))) {
    if (tierOf(c) === last && total - measure(c) >= target) {
      out.splice(out.indexOf(c), 1);
      total -= measure(c);
    }
  }
  return out.map((c) => c.area);
}

/**
 * 11.7.2 results 5 and 10 (D-32, AMBIG-36): the provinces that may revolt. `sizes` holds each
 * province with a friendly city (capital's province excluded) and its size; result 10 excludes
 * the smallest (and tied smallest) unless only such provinces are left.
 */
export function revoltableProvinces(
  sizes: ReadonlyMap<string, number>,
  capitalProvince: string | null,
  notSmallest: boolean,
): string[] {
  const list = [...sizes.entries()].filter(([p]) => p !== capitalProvince);
  if (!notSmallest || list.length === 0) return list.map(([p]) => p).sort();
  const min = Math.min(...list.map(([, v]) => v));
  const larger = list.filter(([, v]) => v > min);
  return (larger.length ? larger : list).map(([p]) => p).sort();
}

/**
 * 11.7.2 result 2 / AMBIG-37: areas within `limit` steps of any of `from`, through land and
 * red-arrow links, and through sea adjacency unless `landOnly`.
 */
export function areasWithin(
  ctx: EngineContext,
  o: Options,
  from: readonly AreaId[],
  limit: number,
): Set<AreaId> {
  const dist = new Map<AreaId, number>(from.map((a) => [a, 0]));
  let frontier = [...new Set(from)];
  for (let d = 1; d <= limit && frontier.length; d++) {
    const next: AreaId[] = [];
    for (const a of frontier) {
      const area = ctx.map.area(a);
      const steps: AreaId[] = ctx.map.landLinks(a).map((l) => l.to);
      if (o.cfg.defectionDistanceGraph === 'all') {
        if (area?.kind === 'sea') steps.push(...ctx.map.shoresOf(a), ...seaNeighbours(ctx, a));
        else steps.push(...ctx.map.seasOf(a));
      }
      for (const b of steps) {
        if (!dist.has(b)) {
          dist.set(b, d);
          next.push(b);
        }
      }
    }
    frontier = next;
  }
  return new Set(dist.keys());
}

/** 11.7.2, AMBIG-37: sea areas joined to a sea area by a sea edge. */
function seaNeighbours(ctx: EngineContext, sea: AreaId): AreaId[] {
  return ctx.map.areaIds.filter(
    (b) => b !== sea && ctx.map.area(b)?.kind === 'sea' && ctx.map.edge(sea, b)?.kind === 'sea',
  );
}
