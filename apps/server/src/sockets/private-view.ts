/**
 * The part of a player's view that differs from the public one: in the engine's `realm`, the
 * player's own entry (its recorded economic plan, its sealed bids) and the lease offers only the two
 * parties see. Patches are diffs of the public view, so they never carry those parts: after each
 * commit the server replays the public patches' operations on that slice as the player's screen
 * holds it and, when the result is not the player's own slice, sends that player a fresh view
 * (e2e report, COORDINATION 15:45). Only the small slice is compared, never the whole realm (whose
 * ledger grows every turn).
 */
import { applyPatch, type PatchMessage, type PatchOp } from '@bke/protocol';

/** A player's private slice of the realm: its own entry and the leases. */
export interface PrivateSlice {
  readonly player: unknown;
  readonly leases: unknown;
}

type RealmLike = { players?: Record<string, unknown>; leases?: unknown } | undefined;

export function privateSlice(realm: unknown, player: string): PrivateSlice {
  const r = realm as RealmLike;
  return { player: r?.players?.[player] ?? null, leases: r?.leases ?? null };
}

const pointerToken = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Whether any of the patches' operations may touch the player's slice (its entry, the leases, the realm). */
export function touchesSlice(patches: readonly PatchMessage[], player: string): boolean {
  const mine = `/realm/players/${pointerToken(player)}`;
  for (const p of patches)
    for (const o of p.ops as PatchOp[])
      if (
        o.path === '' ||
        o.path === '/realm' ||
        o.path === '/realm/players' ||
        o.path === mine ||
        o.path.startsWith(`${mine}/`) ||
        o.path === '/realm/leases' ||
        o.path.startsWith('/realm/leases/')
      )
        return true;
  return false;
}

/**
 * The slice a screen holding `held` has after the public patches; undefined when an operation
 * replaces the realm (or all its players) wholesale, or does not apply: then only a view is safe.
 */
export function sliceAfterPatches(
  held: PrivateSlice,
  player: string,
  patches: readonly PatchMessage[],
): PrivateSlice | undefined {
  const mine = `/realm/players/${pointerToken(player)}`;
  let doc = {
    realm: { players: { [player]: structuredClone(held.player) }, leases: structuredClone(held.leases) },
  };
  for (const p of patches) {
    const ops: PatchOp[] = [];
    for (const o of p.ops as PatchOp[]) {
      if (o.path === '/realm' || o.path === '/realm/players' || o.path === '') return undefined;
      if (
        o.path === mine ||
        o.path.startsWith(`${mine}/`) ||
        o.path === '/realm/leases' ||
        o.path.startsWith('/realm/leases/')
      )
        ops.push(o);
    }
    if (!ops.length) continue;
    try {
      doc = applyPatch(doc, ops);
    } catch {
      return undefined;
    }
  }
  return { player: doc.realm.players[player] ?? null, leases: doc.realm.leases ?? null };
}

/** Whether the screen, after the public patches, holds another slice than the player's own. */
export function privatePartStale(
  held: PrivateSlice,
  player: string,
  patches: readonly PatchMessage[],
  own: PrivateSlice,
): boolean {
  const after = sliceAfterPatches(held, player, patches);
  return after === undefined || canonical(after) !== canonical(own);
}

/** JSON with object keys sorted, so that key order never counts as a difference. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );
}
