/**
 * A bot account is marked as a program, with the person who runs it, on the leaderboard and on its
 * profile; a person's row and profile carry no such mark.
 */
import { leaderboardResponseSchema, profileResponseSchema } from '@bke/protocol';
import { render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import LeaderboardScreen from './LeaderboardScreen.svelte';
import ProfileScreen from './ProfileScreen.svelte';

/** A fake server answering every GET with `answer` (checked against the route's schema first). */
function serve(answer: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(answer), { status: 200 })),
  );
}
afterEach(() => vi.unstubAllGlobals());

const profileOf = (username: string, programOwner?: string) =>
  profileResponseSchema.parse({
    username,
    ...(programOwner ? { programOwner } : {}),
    since: '2026-11-01T00:00:00.000Z',
    worlds: [],
    cycles: [],
    ratings: {},
    ratingHistory: [],
    results: [],
    botsFaced: [],
  });

describe('program marks', () => {
  it('the leaderboard says which rows are programs, and who runs them', async () => {
    serve(
      leaderboardResponseSchema.parse({
        pool: 'all',
        rows: [
          { rank: 1, username: 'robo', programOwner: 'alice', rating: 1600, uncertainty: 80, results: 12 },
          { rank: 2, username: 'bob', rating: 1500, uncertainty: 90, results: 11 },
        ],
        provisional: 0,
      }),
    );
    render(LeaderboardScreen, { pool: 'all' });
    const robo = (await screen.findByRole('rowheader', { name: /robo/ })).textContent ?? '';
    expect(robo.replace(/\s+/g, ' ').trim()).toBe('robo (program, run by alice)');
    const bob = screen.getByRole('rowheader', { name: /bob/ }).textContent ?? '';
    expect(bob).not.toContain('program');
  });

  it('a bot account’s profile says it is a program run by its owner; a person’s does not', async () => {
    serve(profileOf('robo', 'alice'));
    const { unmount } = render(ProfileScreen, { username: 'robo' });
    expect((await screen.findByTestId('profile-program')).textContent).toBe('(program, run by alice)');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toContain('robo (program, run by alice)');
    unmount();
    serve(profileOf('bob'));
    render(ProfileScreen, { username: 'bob' });
    await screen.findByText(/Playing since/);
    expect(screen.queryByTestId('profile-program')).toBeNull();
  });
});
