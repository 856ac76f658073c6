/**
 * The sender hears "ok" before anything else the commit sends: its acknowledgement leaves as soon
 * as the order is durable, ahead of the commit's patches and of the status a new step brings (and
 * of the projections and snapshot written after it). A world's next order must not wait behind the
 * messages of the one before, nor its sender behind every other viewer's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { serveApp } from './helpers/app.ts';
import { api, pickOrder, signup, TestClient } from './helpers/client.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
let app: App;
let base: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  t = await openTestDatabase();
  ({ app, base } = await serveApp(t.db));
});
afterAll(async () => {
  for (const c of clients) c.close();
  await app?.close();
  await t?.dispose();
});

/**
 * What one socket received, in order: `ack:<version>`, `status:<version>`, `patch:<to>` (a status
 * alone, or carried by the patch of the order that moved it).
 */
function recording(c: TestClient): string[] {
  const seen: string[] = [];
  c.socket.on('world/status', (s: { version: number }) => seen.push(`status:${s.version}`));
  c.socket.on('world/patch', (p: { to: number; status?: { version: number } }) => {
    if (p.status) seen.push(`status:${p.status.version}`);
    seen.push(`patch:${p.to}`);
  });
  return seen;
}

describe("an order's acknowledgement", () => {
  it('reaches its sender before the patches and the status of the same commit', async () => {
    const alice = await signup(base, 'alice');
    const bob = await signup(base, 'bob');
    const created = await api(base, alice, 'POST', '/api/worlds', {
      name: 'Ack first',
      deadline: { mode: 'correspondence', hoursPerPhase: 24 },
      earlyResolution: true,
    });
    const worldId = (created.body.world as { id: string }).id;
    for (const who of [alice, bob]) await api(base, who, 'POST', `/api/worlds/${worldId}/join`, {});
    const byPlayer = new Map<string, { c: TestClient; seen: string[] }>();
    for (const who of [alice, bob]) {
      const c = new TestClient(base, who, worldId);
      clients.push(c);
      const r = await c.subscribe();
      if (!r.ok || !r.playerId) throw new Error('not seated');
      byPlayer.set(r.playerId, { c, seen: recording(c) });
    }
    const rt = await app.hub.get(worldId);
    if (!rt) throw new Error('no world');
    const policy = { done: false };
    let stepChanges = 0;
    // Into the third game turn: chosen starts, moves, phase ends and two turn ends.
    for (let i = 0; i < 400 && rt.state.turn < 3; i++) {
      const sender = byPlayer.get(rt.waitingFor()[0] ?? '');
      if (!sender) throw new Error('nobody to play');
      await sender.c.until(rt.version);
      const step = rt.head.stepKey;
      const order = pickOrder(sender.c.legal, policy);
      // Noted in the acknowledgement's own callback: messages read from the same packet as it
      // are handled before any awaiting code runs.
      const r = await new Promise<{ ok: boolean; version?: number; error?: unknown }>((resolve, reject) =>
        sender.c.socket
          .timeout(10_000)
          .emit(
            'world/order',
            { worldId, version: sender.c.version, order },
            (e: Error | null, ack: { ok: boolean; version?: number }) => {
              if (e) return reject(e);
              if (ack.ok) sender.seen.push(`ack:${ack.version}`);
              resolve(ack);
            },
          ),
      );
      if (!r.ok || r.version === undefined) throw new Error(`refused: ${JSON.stringify(r.error)}`);
      await sender.c.until(r.version);
      if (rt.head.stepKey !== step) {
        stepChanges++;
        const status = `status:${r.version}`;
        await new Promise<void>((resolve) => {
          const check = () => (sender.seen.includes(status) ? resolve() : setTimeout(check, 5));
          check();
        });
      }
      const seen = sender.seen;
      const ack = seen.indexOf(`ack:${r.version}`);
      expect(seen.indexOf(`patch:${r.version}`)).toBeGreaterThan(ack);
      const status = seen.indexOf(`status:${r.version}`);
      if (status !== -1) expect(status).toBeGreaterThan(ack);
    }
    expect(rt.state.turn).toBe(3);
    // The statuses checked are there: new steps (the players' turns, the phases) came with them.
    expect(stepChanges).toBeGreaterThanOrEqual(4);
  });
});
