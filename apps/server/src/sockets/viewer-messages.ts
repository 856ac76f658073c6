/**
 * What one viewer of a world receives for a range of versions: its own patches (the last with a
 * seat's legal orders when they changed, each status with the first patch that reaches its
 * version), or one full view when the world's memory of patches does not reach back that far; and
 * what a socket that comes back is given to catch up.
 */
import type { PatchMessage, ViewMessage, WorldStatusMessage } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import type { WorldHub } from '../worlds/hub.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import { readOrders } from '../worlds/store.ts';
import { storedPatch, type Viewer } from '../worlds/viewer-patches.ts';
import { playerRoom } from './rooms.ts';
import type { SeatLegalOrders } from './seat-legal-orders.ts';

export function sendPatches(
  hub: WorldHub,
  legal: SeatLegalOrders,
  rt: WorldRuntime,
  range: { from: number; to: number },
  viewer: Viewer,
  statuses: readonly WorldStatusMessage[],
  send: { patch: (m: PatchMessage) => void; view: (v: ViewMessage) => void },
): void {
  const { from, to } = range;
  const patches = rt.viewers.patches(from, to, viewer);
  const state = rt.viewers.stateAt(to) ?? rt.state;
  const seat = viewer ? legal.forRoom(rt, state, viewer, playerRoom(rt.id, viewer)) : null;
  if (!patches) {
    send.view({
      worldId: rt.id,
      version: to,
      view: rt.viewers.view(to, viewer) ?? hub.engine.view(state, viewer),
      ...(seat ? { legal: seat.orders } : {}),
      ...(statuses.length > 0 ? { status: statuses[statuses.length - 1] } : {}),
    });
    return;
  }
  const last = patches.length - 1;
  const statusAt = new Map<number, WorldStatusMessage>();
  for (const s of statuses) {
    const i = patches.findIndex((p) => p.to >= s.version);
    statusAt.set(i === -1 ? last : i, s); // a later status of the same patch replaces an earlier one
  }
  for (const [i, p] of patches.entries()) {
    const legalOrders = i === last && seat?.changed ? seat.orders : undefined;
    const status = statusAt.get(i);
    send.patch(
      legalOrders || status
        ? { ...p, ...(legalOrders ? { legal: legalOrders } : {}), ...(status ? { status } : {}) }
        : p,
    );
  }
}

/**
 * `viewer`'s patches from `from` to the world's version, or undefined when only a full view
 * will do: a seat's come from memory alone; spectators may also have the log's public patches.
 */
export async function catchUpPatches(
  db: Database,
  hub: WorldHub,
  rt: WorldRuntime,
  from: number,
  viewer: Viewer,
): Promise<PatchMessage[] | undefined> {
  const held = rt.viewers.patches(from, rt.version, viewer);
  if (held || viewer !== null) return held;
  const rows = await readOrders(db, rt.id, from, rt.version);
  return rows.map((r) => storedPatch(hub.engine, rt.id, r));
}
