/**
 * A player who comes back takes the seat from the moment the server says so: once the request to
 * come back is answered, no order of the bot that stood in is committed for that seat. The bot
 * thinks outside the world's queue on the seats it read before; the player's return runs inside
 * the queue; so the test notes the world's version inside the queue as the return is made (the
 * hub's own hook for it) and then looks for stand-in orders after it in the log. It comes back at
 * varied moments after going away (a few turns of the event loop later each time) so that some
 * returns land while the bot is reading the seats or thinking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { serveApp, waitFor } from './helpers/app.ts';
import { api, signup } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db, { bots: { aloneMs: 0, paceMs: 0 } }));
});
afterAll(async () => {
  await app?.close();
  await t?.dispose();
});

const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('a returning player', () => {
  it('gets no stand-in order committed for the seat after coming back', async () => {
    const alice = await signup(base, 'alice');
    const created = await api(base, alice, 'POST', '/api/worlds', {
      name: 'Back again',
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
      join: true,
      bots: ['novice', 'novice'],
    });
    const worldId = (created.body.world as { id: string }).id;
    const user = await t.db.prisma.user.findUniqueOrThrow({ where: { usernameKey: 'alice' } });
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    // Inside the world's queue, as each change of absence is made: the version it was made at.
    const changedAt: number[] = [];
    app.hub.events.on('awayChanged', async (w) => {
      if (w.id === worldId) changedAt.push(w.version);
    });
    const standInOrders = async (after: number) =>
      t.db.prisma.worldOrder.count({ where: { worldId, actor: 'p1', kind: 'bot', seq: { gt: after } } });

    let played = 0;
    for (let round = 0; round < 16; round++) {
      await waitFor(
        'the world to wait for alice',
        () => rt.waitingFor().includes('p1' as never),
        60_000,
      ).catch((e) => {
        throw new Error(
          `${e} (round ${round}, waiting for ${rt.waitingFor()}, turn ${rt.state.turn}, ${rt.settings.status})`,
        );
      });
      const away = await app.hub.setAway(worldId, user.id, true, 'novice');
      expect(away.ok).toBe(true);
      await ticks(round % 8);
      const back = await app.hub.setAway(worldId, user.id, false);
      expect(back.ok).toBe(true);
      const backAt = changedAt.at(-1) ?? -1;
      await rt.settled();
      played += await t.db.prisma.worldOrder.count({ where: { worldId, actor: 'p1', kind: 'bot' } });
      expect(await standInOrders(backAt), `round ${round}: stand-in orders after the return`).toBe(0);
    }
    // The stand-in did play for her while she was away (else the test would prove nothing).
    expect(played).toBeGreaterThan(0);
  }, 600_000);
});
