/**
 * The checks a rebuild makes of a world's stored record against its replay, in one place for the
 * rebuild that replays the whole log in turn (rebuild.ts) and for the one that replays stretches
 * of it side by side (rebuild-parallel.ts, rebuild-range.ts).
 */
import { type Engine, type GameState, hashState, upgradeState, upgradeView } from '@bke/engine';
import type { PatchOp } from '@bke/protocol';
import { applyPatchInPlace } from './patch-in-place.ts';

export interface RebuildReport {
  worldId: string;
  orders: number;
  snapshotsChecked: number;
  finalHash: string;
  problems: string[];
}

/** A snapshot as stored: the state as its engine wrote it, and the hash written with it. */
export interface StoredSnapshot {
  state: unknown;
  hash: string;
}

/**
 * What is wrong with the snapshot at `seq` against `replayed`, the state the replay reached there:
 * its stored hash must be its state's, and its state must be the replay's. A snapshot written by an
 * older engine is compared in the current shape; its stored hash belongs to the state as stored.
 */
export function snapshotProblems(
  engine: Engine,
  seq: number,
  replayed: GameState,
  snap: StoredSnapshot,
): string[] {
  const problems: string[] = [];
  const stored = hashState(snap.state);
  if (snap.hash !== stored) problems.push(`snapshot ${seq}: stored hash does not match its state`);
  // The state as stored is hashed once when it already has the current shape (upgradeState
  // returns it as it is), as it is in every world the current engine wrote.
  const upgraded = upgradeState(snap.state);
  if ((upgraded === snap.state ? stored : hashState(upgraded)) !== engine.hash(replayed))
    problems.push(`snapshot ${seq}: stored state differs from the replay`);
  return problems;
}

/**
 * A public view's hash for comparing the view rebuilt from stored patches with the engine's.
 * Standings are derived from the players and options, which the comparison covers; patches stored
 * before views carried standings never updated them, so they are left out of it.
 */
export function publicViewHash(view: unknown): string {
  return hashState({ ...(upgradeView(view) as object), standings: null });
}

export const VIEW_PROBLEM = 'the stored patches do not rebuild the public view';

/**
 * The public view the stored patches start from: the created game's, a copy of its own, since the
 * patches are applied to it in place (the engine's view may share parts with the state).
 */
export function initialPublicView(engine: Engine, created: GameState): unknown {
  return structuredClone(engine.view(created, null));
}

/**
 * A stored patch applied, in place, to the view rebuilt so far (its own: `initialPublicView`).
 * Patches written before an engine upgrade describe views of the older shape; the first patch
 * written after it may need the current shape, so a patch that does not apply (and so left the view
 * as it was) is tried again on the upgraded view.
 */
export function applyPatchAcrossShapes(view: unknown, patch: PatchOp[]): unknown {
  try {
    return applyPatchInPlace(view, patch);
  } catch (e) {
    const upgraded = upgradeView(view);
    if (upgraded === view) throw e;
    return applyPatchInPlace(upgraded, patch);
  }
}
