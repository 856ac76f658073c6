/**
 * The engine's foreseen consequences of a legal order, found for the order the player is about to
 * send and put in words. The client decides nothing here: it reads what the legal order carries.
 */
import type { Consequence, Foreseen, LegalOrder, Order } from '@bke/protocol';
import { collapseRiskWords, hordeRiskWords, seaRiskWords } from './fatal-risk.ts';

export interface ConsequenceNames {
  area: (id: string) => string;
  unit: (id: string) => string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One consequence in plain words, ending with the rule section it comes from. */
export function consequenceWords(c: Consequence, names: ConsequenceNames): string {
  switch (c.kind) {
    case 'stackingLoss':
      return c.automatic
        ? `${plural(c.lose, 'tribe')} would be removed at the end of movement: only one tribe may stay in ${names.area(c.area)}${c.avoidable ? ', unless the tribe already there moves away first' : ''} (rule 9.2).`
        : `${names.area(c.area)} would hold more units than the stacking limits allow: you would have to remove ${plural(c.lose, 'unit')} at the end of movement${c.avoidable ? ', unless a unit there moves away first' : ''} (rule 6).`;
    case 'hordeCutApart':
      return `Your tribes would be cut into ${c.groups.length} groups. In the administration phase you keep one group and lose the ${plural(c.tribesAtRisk, 'tribe')} outside it${c.mendable ? '; your other moves this phase can still join them up' : ''} (rule 9.3.4).`;
    case 'supportLost':
      return `${c.units.map(names.unit).join(', ')} would be left without support and removed in the economic phase (rule 11.5).`;
    case 'mayBeLost':
      return `A die decides: on 4–6 the tribe is lost at sea (${Math.round(c.chance * 100)} % chance) (rule 13.1.1).`;
    case 'hordeMayEnd':
      return hordeRiskWords(c);
    case 'hordeMayEndAtSea':
      return seaRiskWords(c);
    case 'realmMayCollapse':
      return collapseRiskWords(c);
    case 'upkeepShortfall':
      return `Upkeep is ${c.upkeep} but only ${c.available} is available: ${c.disband.map(names.unit).join(', ')} must be disbanded (rule 10.4).`;
  }
}

const foreseen = (f: Foreseen | undefined): Foreseen | null =>
  f?.consequences?.length || f?.onlyLoses ? f : null;

/**
 * What the legal list says the order would cost, or null if nothing: a move to its destination, a
 * sea crossing, or ending the phase. Kingdom plans show their cost where they are composed.
 */
export function foreseenOf(legal: readonly LegalOrder[], order: Order): Foreseen | null {
  switch (order.type) {
    case 'move': {
      const path = order.path as readonly string[];
      const to = path[path.length - 1];
      for (const o of legal)
        if (o.type === 'move' && o.unit === order.unit)
          return foreseen(o.destinations.find((d) => d.to === to));
      return null;
    }
    case 'seaCrossing':
      for (const o of legal)
        if (o.type === 'seaCrossing' && o.tribe === order.tribe && o.sea === order.sea) return foreseen(o);
      return null;
    case 'endPhase':
      for (const o of legal) if (o.type === 'endPhase') return foreseen(o);
      return null;
    default:
      return null;
  }
}
