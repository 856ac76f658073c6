/** Invariants every reachable state keeps, shared by the fuzzers and the acceptance sim. */
import type { GameState } from '../../src/index.ts';
import { isLegalStack, type StackPiece } from '../../src/model/stacking.ts';

/**
 * Stacking (6) outside the player turns (inside them it is enforced at the end of movement and
 * combat), ownership (no two owners, no unit beside a neutral garrison), money never negative,
 * VP never decreasing (`vp` carries each player's previous total between calls).
 */
export function problemsOf(state: GameState, vp: Map<string, number>): string[] {
  const out: string[] = [];
  const byArea = new Map<string, StackPiece[]>();
  for (const u of Object.values(state.units)) {
    const l = byArea.get(u.area) ?? [];
    l.push({ kind: u.kind, owner: u.owner, ...(u.inverted ? { inverted: true } : {}) });
    byArea.set(u.area, l);
  }
  const midMove = state.step.kind === 'playerTurn';
  for (const [area, pieces] of byArea) {
    const owners = new Set(pieces.filter((p) => p.kind !== 'leader').map((p) => p.owner));
    if (owners.size > 1) out.push(`two owners in ${area}`);
    if (state.neutrals[area] && pieces.some((p) => p.kind !== 'leader'))
      out.push(`unit beside a neutral in ${area}`);
    // Stacking is enforced at the end of movement and of combat (6); check it outside those phases.
    if (!midMove && !isLegalStack(pieces))
      out.push(`overstack in ${area}: ${pieces.map((p) => p.kind).join('+')}`);
  }
  for (const p of state.players) {
    if (p.money < 0) out.push(`${p.id} money ${p.money}`);
    const total = (p.cycle?.vp ?? 0) + p.finished.totalVp;
    if (total < (vp.get(p.id) ?? 0)) out.push(`${p.id} VP went down`);
    vp.set(p.id, total);
  }
  return out;
}
