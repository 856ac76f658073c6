/**
 * Switching pools on the leaderboard: each pool's table is read again, and a slow answer for the pool
 * left behind never replaces the table of the pool now chosen (ui/loaded.svelte.ts).
 */
import { leaderboardResponseSchema } from '@bke/protocol';
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import LeaderboardScreen from './LeaderboardScreen.svelte';

const boardOf = (pool: 'all' | 'basic', username: string) =>
  leaderboardResponseSchema.parse({
    pool,
    rows: [{ rank: 1, username, rating: 1600, uncertainty: 80, results: 12 }],
    provisional: 0,
  });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the leaderboard, switched between pools', () => {
  it("shows the chosen pool's table even when the pool left behind answers last", async () => {
    // The server answers each request when the test says so, in the order the test picks.
    const answers = new Map<string, (r: Response) => void>();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (url: string) =>
          new Promise<Response>((resolve) => {
            answers.set(new URL(url, 'http://x').searchParams.get('pool') ?? '', resolve);
          }),
      ),
    );
    const { rerender } = render(LeaderboardScreen, { pool: 'all' });
    await vi.waitFor(() => expect(answers.has('all')).toBe(true));
    await rerender({ pool: 'basic' });
    await vi.waitFor(() => expect(answers.has('basic')).toBe(true));
    answers.get('basic')?.(new Response(JSON.stringify(boardOf('basic', 'bertha')), { status: 200 }));
    expect(await screen.findByRole('rowheader', { name: /bertha/ })).toBeTruthy();
    answers.get('all')?.(new Response(JSON.stringify(boardOf('all', 'alaric')), { status: 200 }));
    // Long enough for the late answer to land if it were going to.
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('rowheader', { name: /alaric/ })).toBeNull();
    expect(screen.getByRole('rowheader', { name: /bertha/ })).toBeTruthy();
  });
});
