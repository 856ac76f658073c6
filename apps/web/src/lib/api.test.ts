import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call } from './api.ts';

const answer = (status: number, body: unknown) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status }));

afterEach(() => vi.unstubAllGlobals());

describe('calls typed from the protocol’s route tables', () => {
  it('fills in the path, sends the CSRF header and the body, and returns the answer', async () => {
    const fetch = answer(200, { away: true });
    vi.stubGlobal('fetch', fetch);
    expect(await call('setAway', { params: { id: 'w 1' }, body: { away: true, standIn: null } })).toEqual({
      away: true,
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/worlds/w%201/away');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ 'x-bke-csrf': '1' });
    expect(JSON.parse(String(init.body))).toEqual({ away: true, standIn: null });
  });

  it('refuses, in a development build, an answer that drifted from the route’s schema', async () => {
    vi.stubGlobal('fetch', answer(200, { user: { id: 7 } }));
    await expect(call('me')).rejects.toThrow();
  });

  it('turns an error answer into its code and parameters', async () => {
    vi.stubGlobal(
      'fetch',
      answer(429, { error: { code: 'http/rate_limited', message: 'Slow down.', retryAfterSeconds: 30 } }),
    );
    const e = await call('listWorlds').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ code: 'http/rate_limited', status: 429, params: { retryAfterSeconds: 30 } });
  });
});
