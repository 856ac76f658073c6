/**
 * 7.2 EX: the side with the smaller total unmodified strength is eliminated; the other side loses
 * at least as much unmodified strength, its owner choosing which units.
 */

const EX_TIE_POLICIES = ['bothEliminated', 'defenderLoses'] as const;
/** AMBIG-4 `exTie`: what an exchange does when both totals are equal. */
export type ExTiePolicy = (typeof EX_TIE_POLICIES)[number];

export interface ExchangeOutcome {
  /** The side eliminated entirely. */
  readonly eliminated: 'attacker' | 'defender' | 'both';
  /** The unmodified strength the other side must lose at least (0 when both are eliminated). */
  readonly owed: number;
}

/**
 * 7.2, AMBIG-4: which side an exchange eliminates, from the unmodified (printed, un-halved,
 * un-shifted) totals. On a tie both sides go (`bothEliminated`, the default: the attacker owes
 * everything anyway) or only the defender does and the attacker owes its total (`defenderLoses`).
 */
export function exchangeOutcome(
  attackTotal: number,
  defenceTotal: number,
  tie: ExTiePolicy,
): ExchangeOutcome {
  if (attackTotal < defenceTotal) return { eliminated: 'attacker', owed: attackTotal };
  if (defenceTotal < attackTotal) return { eliminated: 'defender', owed: defenceTotal };
  return tie === 'bothEliminated'
    ? { eliminated: 'both', owed: 0 }
    : { eliminated: 'defender', owed: defenceTotal };
}

export interface LossCandidate {
  readonly id: string;
  readonly strength: number;
}

/**
 * 7.2: the sets of units the surviving side may give up. A set is legal if it makes up at least
 * `owed` strength and is minimal (dropping any unit would leave it short), so a player cannot throw
 * away more than the exchange takes. Sets are returned as sorted id lists, in a stable order.
 */
export function exchangeLossSets(units: readonly LossCandidate[], owed: number): string[][] {
  if (owed <= 0) return [[]];
  const total = units.reduce((s, u) => s + u.strength, 0);
  if (total <= owed) return [units.map((u) => u.id).sort()];
  // Depth-first over include/exclude, stopping a branch as soon as it covers the debt (adding more
  // could never be minimal) or can no longer reach it.
  const sets: string[][] = [];
  const suffix = units.map((_, i) => units.slice(i).reduce((s, u) => s + u.strength, 0));
  const visit = (i: number, chosen: LossCandidate[], sum: number) => {
    if (sum >= owed) {
      if (chosen.every((u) => sum - u.strength < owed)) sets.push(chosen.map((u) => u.id).sort());
      return;
    }
    if (i >= units.length || sum + (suffix[i] ?? 0) < owed) return;
    const u = units[i]!;
    visit(i + 1, [...chosen, u], sum + u.strength);
    visit(i + 1, chosen, sum);
  };
  visit(0, [], 0);
  return sets.sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()));
}

/** 7.2: whether a chosen loss set is one of the legal ones. */
export function isLegalLossSet(
  units: readonly LossCandidate[],
  owed: number,
  chosen: readonly string[],
): boolean {
  const key = [...chosen].sort().join();
  return exchangeLossSets(units, owed).some((set) => set.join() === key);
}
