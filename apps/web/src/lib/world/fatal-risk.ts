/**
 * An order that can end the player's horde or empire, put in words before it is sent. The engine
 * counts the chance on the combat results table, the sea crossing's die or the administration and
 * Rebellion tables (counts out of 36, or 36 × 36 for two rolls); here it is said as the plainest
 * fraction ("1 in 6") with what would do it.
 */
import type { Consequence } from '@bke/protocol';

type HordeMayEnd = Extract<Consequence, { kind: 'hordeMayEnd' }>;
type HordeMayEndAtSea = Extract<Consequence, { kind: 'hordeMayEndAtSea' }>;
type RealmMayCollapse = Extract<Consequence, { kind: 'realmMayCollapse' }>;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * A chance out of `outOf` (36 for two dice, 1296 for two rolls of two) as the smallest fraction:
 * 6/36 → "1 in 6", 7/36 → "7 in 36".
 */
export function chanceInWords(chance: number, outOf = 36): string {
  const ways = Math.round(chance * outOf);
  if (ways >= outOf) return 'certain';
  if (ways <= 0) return 'no chance';
  const d = gcd(ways, outOf);
  return `${ways / d} in ${outOf / d}`;
}

/** What happens when a horde ends (14.3), said the same way for every order that can do it. */
const WHAT_ENDING_MEANS =
  'a horde with no units has finished its cycle; its victory points are kept and you pick a new start (rule 14.3)';

/** The results of 7.2 that can take a whole attacking force, said shortly. */
const RESULT_NAMES: Record<string, string> = {
  AE: 'attacker eliminated',
  AR1: 'a retreat of 1 area with no way back',
  AR2: 'a retreat of 2 areas your units cannot make',
  AR3: 'a retreat of 3 areas your units cannot make',
  EX: 'an exchange',
};

const joinOr = (parts: string[]): string =>
  parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;

/** 14.3, 7.2: "This attack at 3-1 can end your horde: 7 in 36 (an exchange)…". */
export function hordeRiskWords(c: HordeMayEnd, odds?: string): string {
  const at = odds && odds !== 'autoAE' ? ` at ${odds}` : '';
  const by = joinOr(c.by.map((b) => `${RESULT_NAMES[b.result] ?? b.result}: ${chanceInWords(b.chance)}`));
  return `This attack${at} can end your horde: ${chanceInWords(c.chance)} (${by}). It uses every unit you have left, and ${WHAT_ENDING_MEANS}.`;
}

/** 14.3, 13.1.1: "This sea crossing can end your horde: 1 in 2…". */
export function seaRiskWords(c: HordeMayEndAtSea): string {
  return `This sea crossing can end your horde: ${chanceInWords(c.chance)} (the die loses the tribe on 4–6). It is the last unit you have, and ${WHAT_ENDING_MEANS}.`;
}

/** 11.7.2 result 7, 14.3: "Your administration on the 0% column can end your empire…". */
export function collapseRiskWords(c: RealmMayCollapse): string {
  const percent = Math.round(c.chance * 1000) / 10;
  const calls =
    c.rebellion > 0
      ? `the administration roll calls for the Rebellion Table with a chance of ${chanceInWords(c.rebellion)}${c.capitalLost ? ', and losing your capital this turn calls for one more roll' : ''}`
      : 'losing your capital this turn calls for a roll on the Rebellion Table';
  return `Your administration on the ${c.percent}% column can end your empire in a Complete Collapse: ${chanceInWords(c.chance, 1296)} (about ${percent} %). After this plan ${calls}, and a 7 there removes all your units and markers and puts neutral garrisons in all your cities; the victory points are kept and you may start a new cycle next turn (rule 11.7.2).`;
}
