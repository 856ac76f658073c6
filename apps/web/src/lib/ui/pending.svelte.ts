/**
 * A form's request while it runs: `busy` disables its button, `error` holds the words of the
 * refusal's code (every code has words, lib/words.ts). A new request clears the last error.
 */
import { wordsOf } from '../api.ts';

export class Pending {
  busy = $state(false);
  error = $state<string | null>(null);

  /** Runs `request` (which shows its own outcome); a refusal or failure lands in `error`. */
  async run(request: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      await request();
    } catch (e) {
      this.error = wordsOf(e);
    } finally {
      this.busy = false;
    }
  }
}
