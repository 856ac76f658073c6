/**
 * What a component reads from the server for its parameters, read again whenever a parameter the
 * request reads changes. Only the latest request's answer is kept: a slower answer to an earlier
 * parameter (a pool switched twice quickly, a profile left for another) is dropped, never shown
 * under the newer one. A refusal is kept in words (lib/words.ts), as forms keep theirs (pending.svelte.ts).
 *
 * Made while the component is set up (it registers an effect there):
 *   const loading = new Loaded(() => call('leaderboard', { query: { pool } }));
 */
import { wordsOf } from '../api.ts';

export class Loaded<T> {
  value = $state<T | null>(null);
  error = $state<string | null>(null);

  constructor(request: () => Promise<T>) {
    $effect(() => {
      let latest = true;
      this.value = null;
      this.error = null;
      request().then(
        (v) => {
          if (latest) this.value = v;
        },
        (e) => {
          if (latest) this.error = wordsOf(e);
        },
      );
      // Runs before the effect runs again for a new parameter, and when the component goes away.
      return () => {
        latest = false;
      };
    });
  }
}
