/**
 * What moderators did that this person must know: notices about this account (removed from a
 * world, muted, banned) on every page, and notices about the world on screen (paused, resumed,
 * rolled back). Notices about the account are kept in localStorage until dismissed, so a reload
 * or a sign-out (a ban ends the session) still says what happened and why.
 */
import type { ModerationNotice } from '@bke/protocol';
import { connection } from './connection.svelte.ts';
import { localTime, untilWords } from './ui/time.ts';

const KEY = 'bke-notices';
const KEEP = 10;

export interface Notice extends ModerationNotice {
  readonly id: string;
}

/** A notice as the sentence its reader sees. */
export function noticeWords(n: ModerationNotice): string {
  const why = ` Reason: “${n.reason}”.`;
  const world = n.worldName ? `“${n.worldName}”` : 'this world';
  switch (n.action) {
    case 'seat.remove':
      return n.personal
        ? `A moderator removed you from ${world}.${why} You can still watch it; you can join it again only if a moderator allows it.`
        : `A moderator removed a player from this world.${why}`;
    case 'user.ban':
      return `A moderator banned your account ${untilWords(n.until ?? null)}: you are signed out and cannot log in.${why}`;
    case 'user.mute':
      return `A moderator muted you in chat ${untilWords(n.until ?? null)}. You can still play your turns.${why}`;
    case 'user.unmute':
      return `A moderator lifted your mute: you can chat again.${why}`;
    case 'world.pause':
      return `A moderator paused this world: no orders are taken until it resumes, and the deadline's remaining time is kept.${why}`;
    case 'world.resume':
      return `A moderator resumed this world: orders are taken again.${why}`;
    case 'world.rollback':
      if (n.personal && n.unseated)
        return `A moderator returned ${world} to the start of turn ${n.turn ?? '?'}, before you joined it: your seat went with the undone turns, and you now watch the world as it stands. You may join it again as a new horde.${why}`;
      return `A moderator returned this world to the start of turn ${n.turn ?? '?'}: everything played since is undone, and the history shows the world as it now stands.${why}`;
    case 'world.close':
      return `A moderator closed this world: it takes no more orders.${why}`;
    case 'world.resolve':
      return `A moderator resolved the current step now: players still waited for got their default orders.${why}`;
    case 'world.deadline':
      return `A moderator moved the current deadline.${why}`;
    case 'world.settings':
      return `A moderator changed the deadline settings.${why}`;
    case 'seat.handOver':
      return `A moderator handed a seat in this world to another account.${why}`;
    default:
      return `A moderator acted on ${world} at ${localTime(n.at)}.${why}`;
  }
}

class Notices {
  /** About this account; shown on every page until dismissed. */
  mine = $state<Notice[]>([]);
  /** About worlds, newest last; the world page shows those of its world. */
  worlds = $state<Notice[]>([]);
  private storage: Storage | null = typeof localStorage === 'undefined' ? null : localStorage;

  constructor() {
    try {
      const raw = this.storage?.getItem(KEY);
      if (raw) this.mine = JSON.parse(raw) as Notice[];
    } catch {
      this.mine = [];
    }
    if (typeof window !== 'undefined')
      connection.socket.on('moderation/notice', (n, received) => {
        this.add(n as ModerationNotice);
        // Kept (in localStorage too): the server may now end this socket (a ban, a removal).
        received?.();
      });
  }

  add(n: ModerationNotice): void {
    const notice = { ...n, id: `${n.at}|${n.action}|${n.worldId ?? ''}` };
    if (n.personal) {
      this.mine = [...this.mine.filter((m) => m.id !== notice.id), notice].slice(-KEEP);
      this.save();
    } else {
      this.worlds = [...this.worlds.filter((m) => m.worldId !== n.worldId || !sameKind(m, n)), notice];
    }
  }

  dismiss(id: string): void {
    this.mine = this.mine.filter((n) => n.id !== id);
    this.worlds = this.worlds.filter((n) => n.id !== id);
    this.save();
  }

  /** Whether a moderator removed this account from the world (and the notice is still kept). */
  removedFrom(worldId: string): Notice | undefined {
    return this.mine.findLast((n) => n.action === 'seat.remove' && n.worldId === worldId);
  }

  /** The world notices of one world; a pause and its resume replace each other. */
  of(worldId: string): Notice[] {
    return this.worlds.filter((n) => n.worldId === worldId);
  }

  private save(): void {
    try {
      this.storage?.setItem(KEY, JSON.stringify(this.mine));
    } catch {
      // Storage off: the notice stays for this page's life only.
    }
  }
}

/** A pause and a resume are two states of one thing: the newer replaces the older on screen. */
const PAUSING = new Set(['world.pause', 'world.resume']);
const sameKind = (a: ModerationNotice, b: ModerationNotice) =>
  a.action === b.action || (PAUSING.has(a.action) && PAUSING.has(b.action));

export const notices = new Notices();
