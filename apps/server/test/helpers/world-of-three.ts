/**
 * A world with every optional rule on, created by an admin "host", and three players (alice, bob,
 * carol) seated in it through the HTTP routes: the table the hidden-information, record and
 * since-last tests play on.
 */
import { EVERY_OPTIONAL_RULE } from '@bke/engine';
import { api, signup } from './client.ts';
import type { TestDatabase } from './test-database.ts';

export interface WorldOfThree {
  /** The host's session cookie (an admin). */
  host: string;
  worldId: string;
  /** alice's, bob's and carol's session cookies, in that order. */
  cookies: string[];
}

export async function worldOfThree(
  t: TestDatabase,
  base: string,
  name: string,
  seed: string,
): Promise<WorldOfThree> {
  const host = await signup(base, 'host');
  await t.db.prisma.user.update({ where: { username: 'host' }, data: { role: 'admin' } });
  const created = await api(base, host, 'POST', '/api/worlds', {
    name,
    options: { opt: EVERY_OPTIONAL_RULE },
    seed,
  });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  const worldId = (created.body.world as { id: string }).id;
  const cookies: string[] = [];
  for (const player of ['alice', 'bob', 'carol']) {
    const cookie = await signup(base, player);
    cookies.push(cookie);
    const joined = await api(base, cookie, 'POST', `/api/worlds/${worldId}/join`, {});
    if (joined.status !== 200) throw new Error(JSON.stringify(joined.body));
  }
  return { host, worldId, cookies };
}
