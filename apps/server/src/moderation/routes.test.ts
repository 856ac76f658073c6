import {
  HTTP_ROUTES,
  MODERATION_ACTIONS,
  MODERATION_EXAMPLES,
  MODERATION_ROUTES,
  renderModerationDoc,
} from '@bke/protocol';
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

  it('renders a documented section with a checked example for every route', () => {
    const doc = renderModerationDoc().join('\n');
    for (const [, r] of routes) expect(doc).toContain(`### \`${r.method} ${r.path}\``);
    expect(Object.keys(MODERATION_EXAMPLES).sort()).toEqual(routes.map(([k]) => k).sort());
  });

  it('refuses a body without a reason on every moderator action', () => {
    for (const [key, r] of routes)
      if ('body' in r && r.body && r.level !== 'user') expect(r.body.safeParse({}).success, key).toBe(false);
  });
});
