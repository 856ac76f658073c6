/**
 * `world/subscribe`: a socket starts watching a world, from its seat when the account holds one,
 * and is given what it lacks — the patches since the version it holds when few, else a whole view
 * — with the status, its legal orders, the chat it may read and the recent events.
 *
 * A subscribe only reads, and a storm of them (a thousand sockets back within a second after a
 * deploy or a network blip) must not queue behind one another: it reads the database once
 * (subscription-reads.ts), takes everything else from the world held in memory and from the
 * parts every socket of the same version and viewer shares (resync-parts.ts), and joins the
 * world's rooms in the same synchronous step as it takes the version its answer is at, so that no
 * patch after that version can miss the socket. It goes through the world's queue only when this
 * process is behind the log (another process moved the world on): then it catches up first, and a
 * client is never handed an older version than it held.
 */
import type { PlayerId } from '@bke/engine';
import { type Ack, MAX_PATCH_GAP, type SubscribeResult, subscribeSchema } from '@bke/protocol';
import type { WorldRuntime } from '../../worlds/runtime.ts';
import { handler, refuse, type SocketContext } from '../context.ts';
import { playerRoom, worldRoom } from '../rooms.ts';
import { readSubscription } from '../subscription-reads.ts';
import type { BkeSocket } from '../typed-server.ts';

/** Answers made again when the world moved on while one was being made, before giving up on speed. */
const ATTEMPTS = 3;

export const subscribe = handler({
  event: 'world/subscribe',
  schema: subscribeSchema,
  async handle(ctx, socket, msg) {
    const { hub } = ctx;
    const user = await ctx.admission.signedIn(socket);
    // A world the account may not see is no world (worlds/access.ts), before anything is loaded.
    const reads = await readSubscription(ctx.db, msg.worldId, user);
    if (!reads) return refuse('world/not_found');
    const rt = await hub.get(msg.worldId);
    if (!rt) return refuse('world/not_found');
    const playerId = (reads.playerId ?? null) as PlayerId | null;
    const staff = user?.role === 'moderator' || user?.role === 'admin';
    if (!playerId && !reads.spectators && !staff) return refuse('world/no_spectators');
    // Another process moved the world on since this one last heard (or the client holds a later
    // version than this copy): catch up in the queue before answering.
    if (reads.version > rt.version || (msg.version !== undefined && msg.version > rt.version))
      await rt.run(() => rt.catchUp());
    const ready = reads.ready;
    const chat = await ctx.resync.chat(rt, reads.chatIds);
    for (let attempt = 1; ; attempt++) {
      // A moderator's transaction moved the world in memory and may yet be undone: its outcome first.
      if (rt.unsettled) await rt.run(async () => {});
      const version = rt.version;
      const answer = await answerAt(ctx, rt, version, msg.version, playerId);
      // Joined in the same synchronous step as the version is checked: every later patch reaches
      // the socket through its rooms (one it already holds is recognised as held by the client).
      if ((rt.version === version && !rt.unsettled) || attempt >= ATTEMPTS) {
        join(socket, rt, playerId);
        return {
          ok: true,
          role: playerId ? 'player' : 'spectator',
          playerId,
          ...answer,
          status: ctx.status.now(rt, ready),
          chat,
        } satisfies Ack<SubscribeResult>;
      }
    }
  },
});

/** The sync, legal orders and recent events of `playerId` (null: a spectator) at `version`. */
async function answerAt(
  ctx: SocketContext,
  rt: WorldRuntime,
  version: number,
  held: number | undefined,
  playerId: PlayerId | null,
): Promise<Pick<SubscribeResult, 'sync' | 'legal' | 'recent'>> {
  const state = rt.state;
  const recent = ctx.resync.recent(rt, version, state.turn, playerId);
  let patches =
    held !== undefined && held <= version && version - held <= MAX_PATCH_GAP
      ? rt.viewers.patches(held, version, playerId)
      : undefined;
  // A spectator may also have the log's public patches when the memory does not reach back.
  if (
    !patches &&
    playerId === null &&
    held !== undefined &&
    held <= version &&
    version - held <= MAX_PATCH_GAP
  )
    patches = await ctx.resync.storedPatches(rt, held, version);
  const sync: SubscribeResult['sync'] = patches
    ? { kind: 'patches', patches }
    : {
        kind: 'view',
        version,
        view: rt.viewers.view(version, playerId) ?? ctx.hub.engine.view(state, playerId),
      };
  return { sync, legal: playerId ? ctx.legal.at(rt, state, playerId) : [], recent: await recent };
}

/** Puts the socket in the world's room, and its seat's when it holds one (leaving a former seat's). */
function join(socket: BkeSocket, rt: WorldRuntime, playerId: PlayerId | null): void {
  const former = socket.data.worlds.get(rt.id);
  // The adapters' rooms are this process's memory: joining and leaving are done at once.
  if (former && former !== playerId) void socket.leave(playerRoom(rt.id, former));
  void socket.join(worldRoom(rt.id));
  if (playerId) void socket.join(playerRoom(rt.id, playerId));
  socket.data.worlds.set(rt.id, playerId);
}
