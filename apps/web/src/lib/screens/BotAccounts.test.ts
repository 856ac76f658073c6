import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import BotAccounts from './BotAccounts.svelte';

const TOKEN = `bke_bot_${'x'.repeat(43)}`;
const token = {
  id: 'Hq3V0tq8hC1v9mWc2p4xYb7nR5sT6uZp1e2f3g4h5i6',
  label: 'laptop',
  createdAt: '2026-11-29T08:00:00.000Z',
  lastUsedAt: '2026-11-29T08:00:00.000Z',
};
const bot = {
  id: '0b7d9e1a-0000-4000-8000-000000000003',
  username: 'robo',
  createdAt: '2026-11-29T08:00:00.000Z',
  bannedUntil: null,
  tokens: [token],
};

/** A fake server holding the person's bots; records each POST. */
function fakeServer(refuseCreate = false) {
  let bots: (typeof bot)[] = [];
  const posts: { url: string; body: unknown }[] = [];
  const json = (x: unknown, status = 200) => new Response(JSON.stringify(x), { status });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method !== 'POST') return json({ bots });
      posts.push({ url, body: JSON.parse(String(init.body)) });
      if (url === '/api/account/bots') {
        if (refuseCreate) return json({ error: { code: 'bot/too_many', message: 'no', limit: 5 } }, 409);
        bots = [bot];
        return json({ bot, token: TOKEN });
      }
      bots = [{ ...bot, tokens: [] }];
      return json({ bots });
    }),
  );
  return posts;
}

afterEach(() => vi.unstubAllGlobals());

describe("the account page's bot accounts", () => {
  it('makes a bot account, shows its token once, and revokes it', async () => {
    const posts = fakeServer();
    render(BotAccounts);
    expect(await screen.findByText('You have no bot accounts.')).toBeTruthy();
    await fireEvent.input(screen.getByLabelText('Bot account name'), { target: { value: 'robo' } });
    await fireEvent.input(screen.getByLabelText(/Token label/), { target: { value: 'laptop' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Make a bot account' }));
    const shown = await screen.findByTestId('bot-token');
    expect(shown.textContent).toContain(TOKEN);
    expect(shown.textContent).toContain('it will not be shown again');
    expect(posts[0]).toEqual({ url: '/api/account/bots', body: { username: 'robo', label: 'laptop' } });
    const list = screen.getByRole('list', { name: 'Tokens of robo' });
    expect(list.textContent).toContain('laptop');

    await fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No live token: the bot cannot play until you make one.')).toBeTruthy();
    expect(screen.queryByTestId('bot-token')).toBeNull();
    expect(posts[1]?.url).toBe(`/api/account/bots/${bot.id}/tokens/${token.id}/revoke`);
  });

  it('says in words why a bot account was not made', async () => {
    fakeServer(true);
    render(BotAccounts);
    await screen.findByText('You have no bot accounts.');
    await fireEvent.input(screen.getByLabelText('Bot account name'), { target: { value: 'robo' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Make a bot account' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('You hold as many as allowed (5) — revoke one first.');
  });
});
