/**
 * The parts of a subscribe's answer that a whole storm of sockets shares, made once and reused by
 * every socket that asks for the same thing: per world version and viewer class (a seat, or the
 * spectators together) the recent events and a spectator's stored patches, and per world the chat
 * lines by id. A world's version never changes what its log holds up to it, so what is kept for a
 * version stays true; the chat lines are kept by id, and which ids a viewer is given is read afresh
 * by every subscribe (subscription-reads.ts), so a line deleted or added anywhere is seen at once.
 * Views and patches are kept by the world itself (worlds/viewer-patches.ts).
 */
import { type ChatMessage, type PatchMessage, RECENT_EVENTS, type RecentEvent } from '@bke/protocol';
import type { Database } from '../db/database.ts';
import type { WorldHub } from '../worlds/hub.ts';
import type { WorldRuntime } from '../worlds/runtime.ts';
import { readOrders, recentEvents } from '../worlds/store.ts';
import { storedPatch, type Viewer } from '../worlds/viewer-patches.ts';
import { toChat } from './chat.ts';

/** What is kept of one world: for its latest version asked for, and its chat lines. */
interface Kept {
  version: number;
  recent: Map<string, Promise<RecentEvent[]>>;
  stored: Map<number, Promise<PatchMessage[]>>;
  chat: Map<string, ChatMessage>;
}

/** Chat lines kept per world past which those no subscribe asked for last are dropped. */
const CHAT_KEPT = 1000;

const viewerKey = (viewer: Viewer): string => viewer ?? '';

export class ResyncParts {
  /** Per world runtime: garbage with it when the world is let go of. */
  private readonly kept = new WeakMap<WorldRuntime, Kept>();

  constructor(
    private readonly db: Database,
    private readonly hub: WorldHub,
  ) {}

  private at(rt: WorldRuntime, version: number): Kept {
    let k = this.kept.get(rt);
    if (!k) {
      k = { version, recent: new Map(), stored: new Map(), chat: new Map() };
      this.kept.set(rt, k);
    } else if (k.version !== version) {
      k.version = version;
      k.recent = new Map();
      k.stored = new Map();
    }
    return k;
  }

  /** The world's last events up to `version` that `viewer` may see (one log read per version and viewer). */
  recent(rt: WorldRuntime, version: number, turn: number, viewer: Viewer): Promise<RecentEvent[]> {
    const k = this.at(rt, version);
    return shared(k.recent, viewerKey(viewer), () =>
      recentEvents(this.db, rt.id, version, turn, RECENT_EVENTS, (events) =>
        this.hub.engine.eventsFor(events, viewer),
      ),
    );
  }

  /** The stored public patches from `from` to `version`, for spectators beyond the world's memory. */
  storedPatches(rt: WorldRuntime, from: number, version: number): Promise<PatchMessage[]> {
    const k = this.at(rt, version);
    return shared(k.stored, from, async () =>
      (await readOrders(this.db, rt.id, from, version)).map((r) => storedPatch(this.hub.engine, rt.id, r)),
    );
  }

  /** The chat lines of `ids` (newest first), oldest first; lines not kept yet are read in one statement. */
  async chat(rt: WorldRuntime, ids: readonly string[]): Promise<ChatMessage[]> {
    const k = this.kept.get(rt) ?? this.at(rt, rt.version);
    const missing = ids.filter((id) => !k.chat.has(id));
    if (missing.length > 0) {
      const rows = await this.db.prisma.chatMessage.findMany({
        where: { worldId: rt.id, id: { in: missing.map((id) => BigInt(id)) } },
        include: { fromUser: { select: { username: true } } },
      });
      for (const r of rows) k.chat.set(r.id.toString(), toChat(r));
      if (k.chat.size > CHAT_KEPT) {
        const wanted = new Set(ids);
        for (const id of k.chat.keys()) if (!wanted.has(id)) k.chat.delete(id);
      }
    }
    const out: ChatMessage[] = [];
    for (let i = ids.length - 1; i >= 0; i--) {
      const m = k.chat.get(ids[i]!);
      if (m) out.push(m);
    }
    return out;
  }
}

/** The promise kept under `key`, made by `make` when there is none; a failed one is not kept. */
function shared<K, T>(map: Map<K, Promise<T>>, key: K, make: () => Promise<T>): Promise<T> {
  let p = map.get(key);
  if (!p) {
    p = make();
    map.set(key, p);
    p.catch(() => {
      if (map.get(key) === p) map.delete(key);
    });
  }
  return p;
}
