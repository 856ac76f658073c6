import { HTTP_ROUTES, MODERATION_ACTIONS, MODERATION_EXAMPLES, MODERATION_ROUTES } from '@bke/protocol';
import { describe, expect, it } from 'vitest';

const routes = Object.entries(MODERATION_ROUTES);

describe('the moderation routes table', () => {
  it('has one method+path per route, none shared with the lobby routes', () => {
    const keys = [
      ...routes.map(([, r]) => `${r.method} ${r.path}`),
      ...Object.values(HTTP_ROUTES).map((r) => `${r.method} ${r.path}`),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('every POST of a moderator or admin records an audit action, every action has a route', () => {
    for (const [key, r] of routes) {
      if (r.method === 'POST' && r.level !== 'user') expect('action' in r, key).toBe(true);
      if (r.method === 'GET') expect('action' in r, key).toBe(false);
    }
    const used = new Set(routes.flatMap(([, r]) => ('action' in r ? [r.action] : [])));
    expect([...used].sort()).toEqual([...MODERATION_ACTIONS].sort());
  });

  it('the players’ report route is the only one open to any account', () => {
    expect(routes.filter(([, r]) => r.level === 'user').map(([k]) => k)).toEqual(['createReport']);
  });

  it('has an example for every route that parses with its schemas (docs/protocol.md)', () => {
    expect(Object.keys(MODERATION_EXAMPLES).sort()).toEqual(routes.map(([k]) => k).sort());
    for (const [key, r] of routes) {
      const ex = MODERATION_EXAMPLES[key as keyof typeof MODERATION_EXAMPLES];
      if ('body' in r && r.body) expect(r.body.safeParse(ex.body).success, `${key} body`).toBe(true);
      expect(r.response.safeParse(ex.response).success, `${key} response`).toBe(true);
    }
  });

  it('refuses a body without a reason on every moderator action', () => {
    for (const [key, r] of routes)
      if ('body' in r && r.body && r.level !== 'user') expect(r.body.safeParse({}).success, key).toBe(false);
  });
});
