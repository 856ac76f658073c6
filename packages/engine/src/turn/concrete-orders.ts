/**
 * Turning a grouped legal order into one concrete order, with a chooser for every open choice.
 * Used by the missed-deadline defaults (the first choice of a compulsory landing or combat
 * decision), the random-legal-play fuzzer, the sim policy, the bots and the benchmark.
 */
import type { LegalOrder } from '../model/legal-orders.ts';
import type { Order } from '../model/orders.ts';

/** Picks an index in [0, n). */
export type Chooser = (n: number) => number;

const pick = <T>(xs: readonly T[], choose: Chooser): T | undefined =>
  xs.length ? xs[choose(xs.length)] : undefined;

export function expand(legal: LegalOrder, choose: Chooser): Order | null {
  switch (legal.type) {
    case 'chooseStart': {
      const area = pick(legal.areas, choose);
      return area ? { type: 'chooseStart', position: legal.position, area } : null;
    }
    case 'combine': {
      const area = pick(legal.areas, choose);
      return area ? { type: 'combine', tribes: legal.tribes, area } : null;
    }
    case 'move': {
      const d = pick(legal.destinations, choose);
      return d ? { type: 'move', unit: legal.unit, path: d.path } : null;
    }
    case 'seaCrossing': {
      const to = pick(legal.to, choose);
      return to ? { type: 'seaCrossing', tribe: legal.tribe, sea: legal.sea, to } : null;
    }
    case 'placeEntryTribes': {
      const a = pick(legal.areas, choose);
      const rest = legal.areas.filter((x) => x !== a);
      const b = pick(rest, choose);
      return a && b ? { type: 'placeEntryTribes', areas: [a, b] } : null;
    }
    case 'keepGroup':
      return { type: 'keepGroup', area: legal.area };
    case 'removeUnits': {
      const pool = [...legal.candidates];
      const units = [];
      for (let i = 0; i < legal.count && pool.length; i++)
        units.push(pool.splice(choose(pool.length), 1)[0]!);
      return { type: 'removeUnits', units };
    }
    case 'foundKingdom': {
      const leaderWith = pick(legal.leaderWith, choose);
      const capital = pick(legal.capital, choose);
      return { type: 'foundKingdom', leaderWith: leaderWith ?? null, capital: capital ?? null };
    }
    default:
      return expandCombat(legal, choose);
  }
}

/** Combat legal orders (src/combat-phase/phase.ts shapes), read structurally. */
function expandCombat(legal: LegalOrder, choose: Chooser): Order | null {
  const o = legal as unknown as Record<string, unknown> & { type: string };
  switch (o.type) {
    case 'combatAttack': {
      const choices = (o.choices as { attackers: string[] }[] | undefined) ?? [];
      const c = pick(choices, choose);
      return c ? ({ type: 'combatAttack', target: o.target, attackers: c.attackers } as Order) : null;
    }
    case 'combatRetreat': {
      const paths = (o.paths as string[][] | undefined) ?? [];
      const p = pick(paths, choose);
      return { type: 'combatRetreat', unit: o.unit, path: p ?? [] } as Order;
    }
    case 'combatExchangeLoss': {
      const sets = (o.sets as string[][] | undefined) ?? [];
      const s = pick(sets, choose);
      return s ? ({ type: 'combatExchangeLoss', units: s } as Order) : null;
    }
    case 'combatAdvance': {
      const to = pick((o.to as string[] | undefined) ?? [], choose);
      return to ? ({ type: 'combatAdvance', unit: o.unit, to } as Order) : null;
    }
    default: {
      // Orders whose legal form is already concrete (endPhase, split, disband, pillage, combatStop, …).
      // What the order would cost (consequences) is advice, not part of the order.
      const { type, consequences: _c, onlyLoses: _l, ...rest } = o;
      return { type, ...rest } as Order;
    }
  }
}

/**
 * Every concrete order a grouped legal order stands for, up to `cap` of them (spread evenly over
 * the choices when there are more): the orders a player could send from this listing. Used by the
 * check that the listing never lies (listed-check.ts).
 */
export function concreteOrders(legal: LegalOrder, cap = Number.POSITIVE_INFINITY): Order[] {
  const out = allConcrete(legal);
  if (out.length <= cap) return out;
  const step = out.length / cap;
  return Array.from({ length: cap }, (_, i) => out[Math.floor(i * step)]!);
}

function allConcrete(legal: LegalOrder): Order[] {
  switch (legal.type) {
    case 'chooseStart':
      return legal.areas.map((area) => ({ type: 'chooseStart', position: legal.position, area }));
    case 'combine':
      return legal.areas.map((area) => ({ type: 'combine', tribes: legal.tribes, area }));
    case 'move':
      return legal.destinations.map((d) => ({ type: 'move', unit: legal.unit, path: d.path }));
    case 'seaCrossing':
      return legal.to.map((to) => ({ type: 'seaCrossing', tribe: legal.tribe, sea: legal.sea, to }));
    case 'placeEntryTribes':
      return legal.areas.flatMap((a, i) =>
        legal.areas.slice(i + 1).map((b): Order => ({ type: 'placeEntryTribes', areas: [a, b] })),
      );
    case 'persianArmy':
      return [{ type: 'persianArmy', units: legal.units, leader: legal.leader }];
    case 'removeUnits': {
      // The first, the last and a middle window of candidates: every count-sized set is legal.
      const c = legal.candidates;
      const starts = [...new Set([0, Math.floor((c.length - legal.count) / 2), c.length - legal.count])];
      return starts
        .filter((s) => s >= 0)
        .map((s): Order => ({ type: 'removeUnits', units: c.slice(s, s + legal.count) }));
    }
    case 'foundKingdom': {
      const withs = legal.leaderWith.length ? legal.leaderWith : [null];
      const capitals = legal.capital.length ? legal.capital : [null];
      return withs.flatMap((leaderWith) =>
        capitals.map((capital): Order => ({ type: 'foundKingdom', leaderWith, capital })),
      );
    }
    case 'combatAttack':
      return legal.choices.map((c) => ({
        type: 'combatAttack',
        target: legal.target,
        attackers: c.attackers,
      }));
    case 'combatRetreat':
      return (legal.paths.length ? legal.paths : [[]]).map((path) => ({
        type: 'combatRetreat',
        unit: legal.unit,
        path,
      }));
    case 'combatExchangeLoss':
      return legal.sets.map((units) => ({ type: 'combatExchangeLoss', units }));
    case 'combatAdvance':
      return legal.to.map((to) => ({ type: 'combatAdvance', unit: legal.unit, to }));
    default: {
      const one = expand(legal, () => 0);
      return one ? [one] : [];
    }
  }
}
