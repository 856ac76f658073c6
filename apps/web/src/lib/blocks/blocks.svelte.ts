/**
 * The accounts whose chat the signed-in person mutes (docs/notes-and-blocks.md). The server keeps
 * the list and stops sending their lines; the page keeps a copy to hide at once the lines already
 * on screen when someone is muted, and to label the buttons.
 */
import type { BlockList } from '@bke/protocol';
import { call } from '../api.ts';

type Blocked = BlockList['blocked'][number];

class Blocks {
  list = $state<Blocked[]>([]);
  loaded = $state(false);
  private loading: Promise<void> | null = null;
  /** The account the list is of: another account signing in on the page reads its own. */
  private owner: string | null = null;

  /** Reads the list of the account `userId` once per page. */
  load(userId: string): Promise<void> {
    if (this.owner !== userId) this.reset();
    this.owner = userId;
    this.loading ??= call('getBlocks')
      .then((r) => {
        this.list = r.blocked;
        this.loaded = true;
      })
      .catch((e: unknown) => {
        this.loading = null;
        throw e;
      });
    return this.loading;
  }

  has(userId: string | null | undefined): boolean {
    return userId != null && this.list.some((b) => b.userId === userId);
  }

  /** Mutes (or unmutes) `username`'s chat; throws the server's refusal. */
  async set(username: string, blocked: boolean): Promise<void> {
    this.list = (await call('setBlock', { body: { username, blocked } })).blocked;
    this.loaded = true;
  }

  private reset(): void {
    this.list = [];
    this.loaded = false;
    this.loading = null;
  }
}

export const blocks = new Blocks();
