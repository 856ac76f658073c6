/**
 * How a client keeps its copy of a world's view in step with the server: a whole view at a
 * version (always taken: the server sends one when the copy cannot be patched), then one patch per
 * order taking version n to n + 1. Every client — the web page, the
 * server's test client, the benchmark's load generator and the browser tests' bots — follows the
 * same rules through these two functions, so none of them can quietly accept a patch the others
 * would refuse.
 */
import { applyPatch, type PatchOp } from './patch.ts';

/** What one patch does to a copy held at some version. */
export type PatchStep<V> =
  /** The patch takes the copy one version on: hold `view` at `version` now. */
  | { readonly kind: 'applied'; readonly view: V; readonly version: number }
  /** The copy is already at the patch's version (a stale order's answer carried it first). */
  | { readonly kind: 'held' }
  /** An older change, already part of the copy. */
  | { readonly kind: 'behind' }
  /** A change between the copy and the patch was missed: ask for the missing ones or a whole view. */
  | { readonly kind: 'gap' }
  /** The patch does not fit the copy (it drifted): start again from a whole view. */
  | { readonly kind: 'drift' };

export interface Patch {
  readonly from: number;
  readonly to: number;
  readonly ops: readonly unknown[];
}

/** The next step of a copy of `view` held at `version`, given one patch; the copy is not mutated. */
export function followPatch<V>(view: V, version: number, patch: Patch): PatchStep<V> {
  if (patch.to < version) return { kind: 'behind' };
  if (patch.to === version) return { kind: 'held' };
  if (patch.from !== version) return { kind: 'gap' };
  try {
    return { kind: 'applied', view: applyPatch(view, patch.ops as PatchOp[]), version: patch.to };
  } catch {
    return { kind: 'drift' };
  }
}

/**
 * Whether a status (deadline, who is waited for) replaces the one held: not when the one held is
 * of a later version — a status that came inside an earlier patch may arrive after a newer one.
 */
export const isLaterStatus = (
  held: { readonly version: number } | null | undefined,
  next: { readonly version: number },
) => !held || next.version >= held.version;
