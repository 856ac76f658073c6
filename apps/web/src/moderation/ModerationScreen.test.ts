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
  access: 'public',
  reservedSeats: 0,
  spectators: true,
  victory: 'basic',
  version: 3,
  turn: 1,
  step: { kind: 'entry' },
  deadlineAt: null,
  waitingFor: [],
  seats: [],
};

/** A fake server: answers the GETs the area makes and records the POSTs; `listed` is what it lists. */
function fakeServer(listed: { turn: number } = world, onPost: () => void = () => {}) {
  const posts: { url: string; body: unknown }[] = [];
  const json = (x: unknown, status = 200) => new Response(JSON.stringify(x), { status });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        posts.push({ url, body: JSON.parse(String(init.body)) });
        onPost();
        const action = url.endsWith('/rollback') ? 'world.rollback' : 'world.pause';
        return json({
          ok: true,
          action: {
            id: '1',
            actor: { id: 'u', username: 'marcus' },
            action,
            worldId: world.id,
            worldName: world.name,
            targetUserId: null,
            reason: 'maintenance',
            params: action === 'world.rollback' ? { turn: 1, undone: [{}, {}] } : {},
            at: '2026-11-21T12:00:00.000Z',
          },
        });
      }
      if (url === '/api/worlds') return json({ worlds: [{ ...world, ...listed }] });
      if (url.endsWith('/seats')) return json({ seats: [] });
      if (url.endsWith('/turns'))
        return json({
          turns: [
            { turn: 1, seq: 0, unseats: [] },
            { turn: 2, seq: 9, unseats: [] },
          ],
        });
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
    // Said in words: what was done to which world, no action code or audit number.
    expect((await screen.findByTestId('mod-message')).textContent).toBe(
      `Done: paused the world “${world.name}”.`,
    );
    expect(posts).toEqual([
      { url: `/api/moderation/worlds/${world.id}/pause`, body: { reason: 'maintenance' } },
    ]);
  });

  it('asks before a rollback, saying what it will do, and sends nothing on Cancel', async () => {
    session.user = { id: 'u', username: 'marcus', role: 'admin' };
    const posts = fakeServer();
    render(ModerationScreen);
    await fireEvent.click(await screen.findByTestId('mod-world'));
    await fireEvent.input(await screen.findByTestId('mod-reason'), {
      target: { value: 'a bug ate a stack' },
    });
    await fireEvent.click(await screen.findByRole('button', { name: 'Roll back…' }));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(dialog.textContent).toMatch(/Every order given since turn 1 began is undone/);
    expect(dialog.textContent).toMatch(/a bug ate a stack/);
    // Everyone had joined when turn 1 began: the confirmation says no seat goes.
    expect(dialog.textContent).toMatch(/Every seat stays/);
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
    expect(posts).toEqual([]);
    await fireEvent.click(screen.getByRole('button', { name: 'Roll back…' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Roll back to turn 1' }));
    expect((await screen.findByTestId('mod-message')).textContent).toMatch(
      /back to the start of turn 1 \(2 orders undone\)/,
    );
    expect(posts.map((p) => p.url)).toEqual([`/api/moderation/worlds/${world.id}/rollback`]);
  });

  it('says a rollback is done only once the panel shows the world it left', async () => {
    session.user = { id: 'u', username: 'marcus', role: 'admin' };
    const listed = { turn: 2 };
    fakeServer(listed, () => {
      listed.turn = 1;
    });
    render(ModerationScreen);
    await fireEvent.click(await screen.findByTestId('mod-world'));
    await fireEvent.input(await screen.findByTestId('mod-reason'), {
      target: { value: 'a bug ate a stack' },
    });
    await fireEvent.click(await screen.findByRole('button', { name: 'Roll back…' }));
    await fireEvent.click(await screen.findByRole('button', { name: 'Roll back to turn 1' }));
    await screen.findByTestId('mod-message');
    // At the moment "Done" shows: the world's line says turn 1, and nothing says it is still working.
    expect(screen.getByText(/^Status/).textContent).toMatch(/turn 1 ·/);
    expect(screen.queryByTestId('mod-working')).toBeNull();
  });
});
