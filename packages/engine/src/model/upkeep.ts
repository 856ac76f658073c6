/**
 * 10.4 / 11.2 / 11.3 Upkeep: what each unit costs per turn in each stage, the total a player
 * owes, and the "no more than necessary" rule for disbanding when the money is short (AMBIG-32).
 */
import type { Stage } from './people.ts';
import type { UnitKind } from './units.ts';

/** B.2: upkeep per unit kind and stage; null = the stage cannot hold or buy it. Leaders cost 0. */
const UPKEEP: Readonly<Record<Stage, Partial<Record<UnitKind, number>>>> = {
  barbarian: {},
  kingdom: { cavalry: 3, infantry: 2, bow: 1, ship: 2, leader: 0 },
  empire: { elite: 5, infantry: 3, ship: 2, garrison: 1, leader: 0 },
};

/** 10.4 / 11.2: upkeep of one unit; barbarians pay none (9.4, B.2), whatever they hold. */
export function upkeepOf(kind: UnitKind, stage: Stage): number {
  if (stage === 'barbarian') return 0;
  return UPKEEP[stage][kind] ?? 0;
}

/** 10.4 (D-10): total upkeep of a set of units. */
export function totalUpkeep(kinds: readonly UnitKind[], stage: Stage): number {
  return kinds.reduce((s, k) => s + upkeepOf(k, stage), 0);
}

/** 10.5 / 11.2: the kinds a stage may buy (never leaders, capitals, or the other stage's kinds). */
export function purchasableKinds(stage: Stage): UnitKind[] {
  if (stage === 'kingdom') return ['cavalry', 'infantry', 'bow', 'ship'];
  if (stage === 'empire') return ['elite', 'infantry', 'ship', 'garrison'];
  return [];
}

/** 10.5: price = twice upkeep. */
export function priceOf(kind: UnitKind, stage: Stage): number {
  return 2 * upkeepOf(kind, stage);
}

/**
 * 10.4 / AMBIG-32: is this disbanding legal? Only when upkeep exceeds the money, and minimal:
 * after it upkeep fits, and restoring any single disbanded unit would not fit any more.
 */
export function isMinimalDisband(
  upkeeps: readonly number[],
  disbanded: readonly number[],
  money: number,
): boolean {
  const total = upkeeps.reduce((s, x) => s + x, 0);
  if (total <= money) return disbanded.length === 0;
  const kept = total - disbanded.reduce((s, x) => s + x, 0);
  if (kept > money) return false;
  return disbanded.every((x) => kept + x > money);
}

/**
 * 10.4, AMBIG-32: A default minimal disbanding (used when the player gave no plan): drop the costliest units
 * first until upkeep fits, then give back any unit that now fits again. Returns indexes.
 */
export function defaultDisband(upkeeps: readonly number[], money: number): number[] {
  const order = upkeeps.map((u, i) => [u, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  let total = upkeeps.reduce((s, x) => s + x, 0);
  const out: number[] = [];
  for (const [u, i] of order) {
    if (total <= money) break;
    if (u === 0) continue;
    out.push(i);
    total -= u;
  }
  // Give back units (cheapest first) while the remainder still fits: keeps the set minimal.
  for (const i of [...out].sort((a, b) => (upkeeps[a] ?? 0) - (upkeeps[b] ?? 0))) {
    const u = upkeeps[i] ?? 0;
    if (total + u <= money) {
      total += u;
      out.splice(out.indexOf(i), 1);
    }
  }
  return out.sort((a, b) => a - b);
}
