/**
 * Consequences before commitment: each legal order a player is offered carries what it would
 * foreseeably cost — units lost to stacking at the end of movement (6, 9.2), a horde cut apart
 * before the administration phase (9.3.4), empire units left without support (11.5), a tribal sea
 * crossing's die (13.1.1) and the end of the horde when the tribe is its last unit (14.3), an
 * economic plan that must disband for upkeep (10.4), an administration that can end an empire
 * (11.7.2 result 7). Computed by playing the order on a copy of
 * the position and asking the same rule code that will later decide; nothing here changes what is
 * legal.
 */
import { tribeGroups, tribeGroupsAmong } from '../barbarian/continuity.ts';
import { losingEndsHorde } from '../barbarian/horde-end.ts';
import type { Consequence, Foreseen } from '../model/consequences.ts';
import type { EngineContext } from '../model/context.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import type { LegalOrder } from '../model/legal-orders.ts';
import type { People } from '../model/people.ts';
import { playerById, unitsOf } from '../model/queries.ts';
import { realmPlayer } from '../model/realm.ts';
import { isLegalStack } from '../model/stacking.ts';
import { type Game, patchUnit } from '../model/state-ops.ts';
import { movementOf, type Unit } from '../model/units.ts';
import { collapseRisk } from '../realm/collapse-risk.ts';
import { economyPreview } from '../realm/economy.ts';
import { unsupportedUnits } from '../realm/support.ts';
import { withContestedStarts } from '../scenario/contested-starts.ts';
import { seaCrossingLossChance } from './movement-phase.ts';

/** 9.2 then 6: how many units an area's stack loses at the end of movement. */
function endOfMovementLoss(
  units: readonly Unit[],
  joining?: Unit,
): { surplusTribes: number; chosen: number } {
  // 9.2 keeps one non-inverted tribe (the first); 6 then has the owner remove the fewest units that
  // make the stack legal (leaders never count). One pass, `joining` last after `units`, without
  // copying them: this is asked for every destination of every move.
  let loose = 0;
  const rest: Unit[] = [];
  for (let i = 0; i <= units.length; i++) {
    const u = i < units.length ? units[i] : joining;
    if (!u || (u.kind === 'tribe' && !u.inverted && loose++ > 0)) continue;
    if (u.kind !== 'leader') rest.push(u);
  }
  return { surplusTribes: Math.max(0, loose - 1), chosen: fewestRemovals(rest) };
}

const pieceOf = (u: Unit) => ({ kind: u.kind, inverted: u.inverted ?? false });

/** 6: the fewest units to take away so that the rest may share an area (stacks are small). */
function fewestRemovals(units: readonly Unit[]): number {
  // One unit (or none) is always a legal stack (6).
  if (units.length <= 1) return 0;
  if (isLegalStack(units.map(pieceOf))) return 0;
  const n = Math.min(units.length, 12);
  let best = units.length - 1;
  for (let mask = 0; mask < 1 << n; mask++) {
    const kept = units.filter((_, i) => i >= n || (mask & (1 << i)) !== 0);
    const removed = units.length - kept.length;
    if (removed < best && isLegalStack(kept.map(pieceOf))) best = removed;
  }
  return best;
}

const movedSoFar = (g: Game): readonly UnitId[] => (g.step.kind === 'playerTurn' ? g.step.moved : []);

/** 9.3.4: the tribes outside the biggest group (the ones a player keeping that group loses). */
function tribesOutsideBiggest(
  mine: readonly Pick<Unit, 'kind' | 'area'>[],
  groups: readonly AreaId[][],
): number {
  const tribesIn = (group: readonly AreaId[]) =>
    mine.filter((u) => u.kind === 'tribe' && group.includes(u.area)).length;
  const counts = groups.map(tribesIn);
  return counts.reduce((s, c) => s + c, 0) - Math.max(0, ...counts);
}

interface MoveContext {
  readonly ctx: EngineContext;
  readonly g: Game;
  readonly player: PlayerId;
  readonly people: People | undefined;
  /** The player's units (they alone decide stacking and continuity). */
  readonly mine: readonly Unit[];
  /** The player's units per area. */
  readonly mineIn: ReadonlyMap<AreaId, readonly Unit[]>;
  readonly barbarian: boolean;
  readonly empire: boolean;
  /** 9.3.4: the player's groups before this order, and the tribes at risk then. */
  readonly groups: readonly AreaId[][];
  readonly atRiskBefore: number;
  /** Units still free to move this phase (someone may still mend a gap or leave a crowded area). */
  readonly stillToMove: ReadonlySet<UnitId>;
  /** 11.5: the player's units unsupported before this order (asked once, for every destination). */
  unsupportedBefore?: ReadonlySet<UnitId>;
  /** 9.2, 6: what each area's stack loses before this order (asked once per area). */
  readonly lossIn: Map<AreaId, ReturnType<typeof endOfMovementLoss>>;
}

/**
 * 9.3.4: whether moving `unit` to `to` can change the groups or how many tribes lie outside the
 * biggest. It cannot when the areas holding the player's units and those holding its tribes stay
 * the same, and the unit is no tribe or moves within one group (a tribe moved between two groups
 * changes their sizes).
 */
function mayChangeGroups(m: MoveContext, unit: Unit, to: AreaId): boolean {
  if (unit.kind === 'leader') return false;
  if (!othersIn(m, unit, unit.area) || !othersIn(m, unit, to)) return true;
  if (unit.kind !== 'tribe') return false;
  if (!othersIn(m, unit, unit.area, 'tribe') || !othersIn(m, unit, to, 'tribe')) return true;
  return groupIndexOf(m.groups, unit.area) !== groupIndexOf(m.groups, to);
}

/** Whether the player has a unit other than `unit` (and no leader; of `kind` if given) in `area`. */
function othersIn(m: MoveContext, unit: Unit, area: AreaId, kind?: Unit['kind']): boolean {
  for (const u of m.mineIn.get(area) ?? []) {
    if (u.id !== unit.id && u.kind !== 'leader' && (kind === undefined || u.kind === kind)) return true;
  }
  return false;
}

function groupIndexOf(groups: readonly AreaId[][], area: AreaId): number {
  for (let i = 0; i < groups.length; i++) if (groups[i]!.includes(area)) return i;
  return -1;
}

/** 9.2, 6: what the player's stack in `to` loses as it stands (the same for every unit moving there). */
function lossBefore(
  m: MoveContext,
  to: AreaId,
  there: readonly Unit[],
): ReturnType<typeof endOfMovementLoss> {
  let loss = m.lossIn.get(to);
  if (!loss) {
    loss = endOfMovementLoss(there);
    m.lossIn.set(to, loss);
  }
  return loss;
}

/** Most moves cost nothing: one shared answer for them (never attached to an order, never changed). */
const NOTHING_FORESEEN: Foreseen = Object.freeze({});

/** 6, 9.2, 9.3.4, 11.5: what ending a move of `unit` in `to` would cost. */
function foreseeMove(m: MoveContext, unit: Unit, to: AreaId): Foreseen {
  const { ctx, g, player } = m;
  const out: Consequence[] = [];
  const there = m.mineIn.get(to) ?? [];
  const before = lossBefore(m, to, there);
  // The moved unit joins the stack there (its area is not read, so the unit itself stands for it).
  const after = endOfMovementLoss(there, unit);
  let avoidable = false;
  for (const u of there) if (m.stillToMove.has(u.id)) avoidable = true;
  let lost = 0;
  if (after.surplusTribes > before.surplusTribes) {
    const lose = after.surplusTribes - before.surplusTribes;
    lost += lose;
    out.push({ kind: 'stackingLoss', section: '9.2', area: to, lose, automatic: true, avoidable });
  }
  if (after.chosen > before.chosen) {
    const lose = after.chosen - before.chosen;
    lost += lose;
    out.push({ kind: 'stackingLoss', section: '6', area: to, lose, automatic: false, avoidable });
  }
  if (m.barbarian && mayChangeGroups(m, unit, to)) {
    // Continuity reads only the player's own units: the moved list stands for the moved state.
    const moved = m.mine.map((u) => (u.id === unit.id ? { kind: u.kind, area: to } : u));
    const groups = tribeGroupsAmong(ctx, m.people, moved);
    const tribesAtRisk = groups.length > 1 ? tribesOutsideBiggest(moved, groups) : 0;
    if (tribesAtRisk > m.atRiskBefore) {
      let mendable = false;
      for (const id of m.stillToMove) if (id !== unit.id) mendable = true;
      out.push({ kind: 'hordeCutApart', section: '9.3.4', groups, tribesAtRisk, mendable });
    }
  }
  if (m.empire) {
    m.unsupportedBefore ??= new Set(unsupportedUnits(ctx, g, player).map((u) => u.id));
    const was = m.unsupportedBefore;
    const units = unsupportedUnits(ctx, patchUnit(g, unit.id, { area: to }), player)
      .map((u) => u.id)
      .filter((id) => id !== unit.id && !was.has(id))
      .sort();
    if (units.length) out.push({ kind: 'supportLost', section: '11.5', units });
  }
  if (!out.length && lost === 0) return NOTHING_FORESEEN;
  const f: Foreseen = {};
  if (out.length) f.consequences = out;
  if (lost > 0) f.onlyLoses = true;
  return f;
}

/** 4.3.3 end, 9.3.4: what ending the movement phase now would cost, as things stand. */
function foreseeEndOfMovement(m: MoveContext): Consequence[] {
  const { g, player } = m;
  const out: Consequence[] = [];
  const byArea = new Map<AreaId, Unit[]>();
  for (const u of unitsOf(g, player)) byArea.set(u.area, [...(byArea.get(u.area) ?? []), u]);
  for (const [area, units] of [...byArea].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const loss = endOfMovementLoss(units);
    if (loss.surplusTribes > 0)
      out.push({
        kind: 'stackingLoss',
        section: '9.2',
        area,
        lose: loss.surplusTribes,
        automatic: true,
        avoidable: false,
      });
    if (loss.chosen > 0)
      out.push({
        kind: 'stackingLoss',
        section: '6',
        area,
        lose: loss.chosen,
        automatic: false,
        avoidable: false,
      });
  }
  if (m.barbarian && m.atRiskBefore > 0) {
    const groups = tribeGroups(m.ctx, g, player);
    out.push({
      kind: 'hordeCutApart',
      section: '9.3.4',
      groups,
      tribesAtRisk: m.atRiskBefore,
      mendable: false,
    });
  }
  return out;
}

const withForeseen = <T extends object>(o: T, f: Foreseen): T =>
  f.consequences || f.onlyLoses ? { ...o, ...f } : o;

/** The legal orders with their foreseeable consequences attached (the engine's public list). */
export function foresee(ctx: EngineContext, g: Game, player: PlayerId, legal: LegalOrder[]): LegalOrder[] {
  const s = g.step;
  if (s.kind === 'playerTurn' && s.phase === 'movement' && s.player === player)
    return foreseeMovement(ctx, g, player, legal);
  if (s.kind === 'economic') return foreseeEconomic(ctx, g, player, legal);
  if (s.kind === 'entry') return withContestedStarts(ctx, g, player, legal);
  return legal;
}

function foreseeMovement(ctx: EngineContext, g: Game, player: PlayerId, legal: LegalOrder[]): LegalOrder[] {
  const stage = playerById(g, player)?.cycle?.stage;
  const barbarian = stage === 'barbarian';
  const moved = movedSoFar(g);
  const stillToMove = new Set(
    unitsOf(g, player)
      .filter((u) => !moved.includes(u.id) && !u.inverted && movementOf(u.kind, ctx.options) > 0)
      .map((u) => u.id),
  );
  const mine = unitsOf(g, player);
  const mineIn = new Map<AreaId, Unit[]>();
  for (const u of mine) mineIn.set(u.area, [...(mineIn.get(u.area) ?? []), u]);
  const people = playerById(g, player)?.cycle?.people;
  const groups = barbarian ? tribeGroupsAmong(ctx, people, mine) : [];
  const atRiskBefore = groups.length > 1 ? tribesOutsideBiggest(mine, groups) : 0;
  const m: MoveContext = {
    ctx,
    g,
    player,
    people,
    mine,
    mineIn,
    barbarian,
    empire: stage === 'empire',
    groups,
    atRiskBefore,
    stillToMove,
    lossIn: new Map(),
  };
  return legal.map((o) => {
    if (o.type === 'move') {
      const unit = g.units[o.unit];
      if (!unit) return o;
      return { ...o, destinations: o.destinations.map((d) => withForeseen(d, foreseeMove(m, unit, d.to))) };
    }
    if (o.type === 'seaCrossing') {
      // 13.1.1: 1–3 on one die crosses, 4–6 loses the tribe; 14.3: if it is the horde's last
      // unit, losing it ends the horde.
      const chance = seaCrossingLossChance();
      const risk: Consequence[] = [{ kind: 'mayBeLost', section: '13.1.1', unit: o.tribe, chance }];
      if (losingEndsHorde(ctx, g, player, new Set([o.tribe])))
        risk.push({ kind: 'hordeMayEndAtSea', section: '14.3', unit: o.tribe, chance });
      return { ...o, consequences: risk };
    }
    if (o.type === 'endPhase') {
      const consequences = foreseeEndOfMovement(m);
      return consequences.length ? { ...o, consequences } : o;
    }
    return o;
  });
}

/**
 * 10.4: an economic plan that disbands units says how far upkeep exceeds the money. 11.7.2, 14.3:
 * a plan (by the column it buys) and the phase's end (with the plan recorded, else the default)
 * say when the administration that follows can end an empire in a Complete Collapse.
 */
function foreseeEconomic(ctx: EngineContext, g: Game, player: PlayerId, legal: LegalOrder[]): LegalOrder[] {
  const stage = playerById(g, player)?.cycle?.stage;
  if (stage !== 'kingdom' && stage !== 'empire') return legal;
  const pv = legal.some((o) => o.type === 'realmPlan' && o.plan.disband.length > 0)
    ? economyPreview(ctx, g, player)
    : null;
  const upkeep = pv ? pv.upkeepUnits.reduce((s, u) => s + u.upkeep, 0) : 0;
  const collapse = new Map<number, Consequence | null>();
  const collapseAt = (percent: number) => {
    if (!collapse.has(percent)) collapse.set(percent, collapseRisk(ctx, g, player, percent));
    return collapse.get(percent) ?? null;
  };
  return legal.map((o) => {
    const out: Consequence[] = [];
    if (o.type === 'realmPlan') {
      if (pv && o.plan.disband.length > 0)
        out.push({
          kind: 'upkeepShortfall',
          section: '10.4',
          upkeep,
          available: pv.available,
          disband: [...o.plan.disband],
        });
      const c = collapseAt(o.plan.adminPercent);
      if (c) out.push(c);
    } else if (o.type === 'endPhase') {
      const c = collapseAt(realmPlayer(g, player).plan?.adminPercent ?? 0);
      if (c) out.push(c);
    }
    return out.length ? { ...o, consequences: out } : o;
  });
}
