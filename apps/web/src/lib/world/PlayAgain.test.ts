import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as api from '../api.ts';
import { router } from '../router.svelte.ts';
import PlayAgain from './PlayAgain.svelte';

// The answer's full world summary is the server's business (tested there); here only its id matters.
vi.mock('../api.ts', async (actual) => {
  const real = await actual<typeof import('../api.ts')>();
  return { ...real, call: vi.fn(real.call) };
});

const OLD = '6f1c2a4e-0000-4000-8000-000000000001';
const NEW = '6f1c2a4e-0000-4000-8000-000000000002';

function serve(status: number, body: unknown) {
  const posts: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      posts.push(url);
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return posts;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('"Play again" on an ended world', () => {
  it('asks for the new world and opens its page', async () => {
    vi.mocked(api.call).mockResolvedValueOnce({ world: { id: NEW } } as never);
    const go = vi.spyOn(router, 'go').mockImplementation(() => {});
    render(PlayAgain, { worldId: OLD });
    expect(screen.getByText(/the people who played here are invited/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Play again' }));
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith({ name: 'world', id: NEW, tab: null }));
    expect(api.call).toHaveBeenCalledWith('playAgain', { params: { id: OLD }, body: {} });
  });

  it("says in words why it was refused: the day's creation limit", async () => {
    serve(429, { error: { code: 'world/create_limit', message: 'no', per: 'account', limit: 10 } });
    const go = vi.spyOn(router, 'go').mockImplementation(() => {});
    render(PlayAgain, { worldId: OLD });
    await fireEvent.click(screen.getByRole('button', { name: 'Play again' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You have created as many worlds as one day allows (10). Join a running one, or try tomorrow.',
    );
    expect(go).not.toHaveBeenCalled();
  });
});
