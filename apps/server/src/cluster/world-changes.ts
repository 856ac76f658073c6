/**
 * World changes between server processes. The process that changed a world (an order, a deadline,
 * a pause, a ready flag, a seat) says so with `world:changed`; each other process that holds the
 * world catches up from the database and tells its own sockets through the usual hooks, as if the
 * change were its own (worlds/cluster-catch-up.ts `refresh`). A process alone says nothing, so a commit costs no
 * NOTIFY.
 *
 * The adapter replays nothing that was missed (a dropped connection, a process killed between its
 * commit and its message), so every `SWEEP_MS` each process also compares the worlds it holds with
 * the database and catches up those that moved (`sweep`), and at once when the adapter
 * listens again after losing its connection.
 */

import { failingLoop, tickOf } from '../db/failing-loop.ts';
import type { Io } from '../sockets/typed-server.ts';
import type { WorldHub } from '../worlds/hub.ts';
import type { ClusterLink } from './adapter.ts';
import { worldChangedSchema } from './messages.ts';

const SWEEP_MS = 5000;

export interface WorldChanges {
  stop(): void;
}

export function linkWorldChanges(
  io: Io,
  hub: WorldHub,
  link: ClusterLink,
  log: (msg: string, data?: object) => void,
  sweepMs = SWEEP_MS,
): WorldChanges {
  if (link.kind === 'none') return { stop() {} };
  const adapter = io.of('/').adapter;
  const announce = (worldId: string) => {
    void adapter
      .serverCount()
      .then((n) => {
        if (n > 1) io.serverSideEmit('world:changed', worldId);
      })
      .catch((e) => log('cluster: could not announce a world change', { worldId, err: String(e) }));
  };
  hub.events.on('changedHere', announce);
  io.on('world:changed', (raw: unknown) => {
    const worldId = worldChangedSchema.safeParse(raw);
    if (worldId.success) hub.refresh(worldId.data);
    else log('cluster: an unreadable world:changed message was dropped');
  });
  let sweeping = false;
  // While the database is away every sweep fails alike: told once, and once when back.
  const sweeps = failingLoop('cluster: sweep', log);
  const sweep = () => {
    if (sweeping) return;
    sweeping = true;
    void tickOf(sweeps, async () => {
      const behind = await hub.sweep();
      if (behind > 0) log('cluster: caught up worlds changed without a message', { behind });
    }).finally(() => {
      sweeping = false;
    });
  };
  const timer = setInterval(sweep, sweepMs);
  // Back from a lost connection: what the others said meanwhile is gone, so look now.
  let stopped = false;
  link.onRelisten(() => {
    if (!stopped) sweep();
  });
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      hub.events.off('changedHere', announce);
    },
  };
}
