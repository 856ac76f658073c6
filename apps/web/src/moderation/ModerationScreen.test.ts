import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../lib/session.svelte.ts';
import ModerationScreen from './ModerationScreen.svelte';

const world = {
  id: '6f1c2a4e-0000-4000-8000-000000000001',
  name: 'Migration Age',
  status: 'running',
  createdBy: 'alaric',
  createdAt: '2026-11-21T12:00:00.000Z',
  deadline: { mode: 'live', minutesPerPhase: 10 },
  earlyResolution: true,
  maxPlayers: 6,
  victory: 'basic',
  version: 3,
  turn: 1,
  step: 'entry',
  deadlineAt: null,
  waitingFor: [],
  seats: [],
};

/** A fake server: answers the GETs the area makes and records the POSTs. */
function fakeServer() {
  const posts: { url: string; body: unknown }[] = [];
  const json = (x: unknown, status = 200) => new Response(JSON.stringify(x), { status });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        posts.push({ url, body: JSON.parse(String(init.body)) });
        return json({ ok: true, action: { id: '1', action: 'world.pause' } });
      }
      if (url === '/api/worlds') return json({ worlds: [world] });
      if (url.endsWith('/seats')) return json({ seats: [] });
      if (url.endsWith('/turns')) return json({ turns: [{ turn: 0, seq: 0, hash: 'h' }] });
      if (url.endsWith('/chat')) return json({ messages: [] });
      return json({ error: { code: 'http/not_found', message: 'no' } }, 404);
    }),
  );
  return posts;
}

describe('the moderation area', () => {
  beforeEach(() => {
    session.known = true;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    session.user = null;
  });

  it('is closed to plain players', () => {
    session.user = { id: 'u', username: 'alaric', role: 'player' };
    render(ModerationScreen);
    expect(screen.getByTestId('mod-forbidden')).toBeTruthy();
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('shows the audit log tab to admins only', () => {
    session.user = { id: 'u', username: 'marcus', role: 'moderator' };
    fakeServer();
    render(ModerationScreen);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Worlds', 'Accounts', 'Reports']);
  });

  it('asks for a reason before pausing, then sends it', async () => {
    session.user = { id: 'u', username: 'marcus', role: 'admin' };
    const posts = fakeServer();
    render(ModerationScreen);
    await fireEvent.click(await screen.findByTestId('mod-world'));
    await fireEvent.click(await screen.findByRole('button', { name: 'Pause' }));
    expect((await screen.findByTestId('mod-error')).textContent).toMatch(/reason/);
    expect(posts).toEqual([]);
    await fireEvent.input(screen.getByTestId('mod-reason'), { target: { value: 'maintenance' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await screen.findByTestId('mod-message');
    expect(posts).toEqual([
      { url: `/api/moderation/worlds/${world.id}/pause`, body: { reason: 'maintenance' } },
    ]);
  });
});
