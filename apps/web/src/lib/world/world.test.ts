import type { ChatMessage, Order, PatchMessage, SubscribeResult } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { FIXTURE_VIEW, given } from '../../test/fixtures.ts';
import type { WorldHandlers, WorldLink } from './link.ts';
import { WorldStore } from './world.svelte.ts';

type OrderAck = Awaited<ReturnType<WorldLink['order']>>;

const status = {
  worldId: 'w1',
  version: 12,
  status: 'running',
  stepKey: '2|p|p1|movement',
  deadlineAt: null,
  waitingFor: ['p1'],
  ready: [],
  pauseReason: null,
};

function fakeLink(
  first: SubscribeResult['sync'] = { kind: 'view', version: 12, view: FIXTURE_VIEW },
  recent: SubscribeResult['recent'] = [],
) {
  const calls: { subscribe: (number | null)[]; orders: Order[] } = { subscribe: [], orders: [] };
  let handlers: WorldHandlers | null = null;
  let reconnect: (() => void) | null = null;
  let answer: OrderAck = { ok: true, version: 13, deferred: false };
  let sync = first;
  const link: WorldLink = {
    async subscribe(_id: string, version: number | null) {
      calls.subscribe.push(version);
      const r = {
        ok: true as const,
        role: 'player' as const,
        playerId: 'p1',
        sync,
        status,
        legal: [{ type: 'endPhase' as const }],
        chat: [],
        recent,
      };
      sync = { kind: 'patches', patches: [] };
      return r;
    },
    unsubscribe() {},
    async order(_id: string, _v: number, o: Order) {
      calls.orders.push(o);
      return answer;
    },
    async chat() {
      return { ok: false, error: { code: 'auth/required' } };
    },
    async planCost() {
      return { ok: true, cost: null };
    },
    listen(h) {
      handlers = h;
      return () => {
        handlers = null;
      };
    },
    onReconnect(cb) {
      reconnect = cb;
      return () => {};
    },
  };
  return {
    link,
    calls,
    patch: (
      p: Omit<PatchMessage, 'worldId' | 'events'> & { worldId?: string; events?: PatchMessage['events'] },
    ) => handlers?.patch({ worldId: 'w1', events: [], ...p }),
    chat: (m: ChatMessage) => handlers?.chat(m),
    chatDeleted: (id: string, worldId = 'w1') => handlers?.chatDeleted({ worldId, id }),
    view: (m: Omit<Parameters<WorldHandlers['view']>[0], 'worldId'>) =>
      handlers?.view({ worldId: 'w1', ...m }),
    reconnect: () => reconnect?.(),
    answer: (a: OrderAck) => {
      answer = a;
    },
  };
}

const turn = (value: number) => [{ op: 'replace' as const, path: '/turn', value }];

function memoryStorage() {
  const mem = new Map<string, string>();
  return {
    getItem: (k: string) => mem.get(k) ?? null,
    setItem: (k: string, v: string) => void mem.set(k, v),
  };
}

describe('WorldStore', () => {
  it('takes the first view, legal orders and status from the subscription', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link);
    await s.start();
    expect(f.calls.subscribe).toEqual([null]);
    expect(s.version).toBe(12);
    expect(s.view?.turn).toBe(2);
    expect(s.legal).toEqual([{ type: 'endPhase' }]);
    expect(s.status?.waitingFor).toEqual(['p1']);
  });

  it('waits and asks again when the subscription is refused for the pace of the account', async () => {
    const f = fakeLink();
    const answer = f.link.subscribe;
    let refusals = 1;
    f.link.subscribe = async (id, version) => {
      if (refusals-- > 0) {
        f.calls.subscribe.push(version);
        return { ok: false, error: { code: 'socket/rate_limited', retryAfterSeconds: 0 } };
      }
      return answer(id, version);
    };
    const s = new WorldStore('w1', f.link);
    await s.start();
    expect(f.calls.subscribe).toEqual([null, null]);
    expect(s.error).toBeNull();
    expect(s.version).toBe(12);
  });

  it('applies patches in order, logs their events, and resubscribes on a gap', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link);
    await s.start();
    f.patch({
      from: 12,
      to: 13,
      ops: turn(3),
      events: [
        { type: 'turnEnded', turn: 2 },
        { type: 'turnStarted', turn: 3 },
        given({ type: 'moveOrderFixed' }),
      ],
    });
    expect(s.view?.turn).toBe(3);
    expect(s.log.map((l) => [l.turn, l.event.type])).toEqual([
      [2, 'turnEnded'],
      [3, 'turnStarted'],
      [3, 'moveOrderFixed'],
    ]);
    f.patch({ from: 15, to: 16, ops: turn(9) });
    expect(s.view?.turn).toBe(3);
    expect(f.calls.subscribe).toEqual([null, 13]);
  });

  it('takes a full view and its legal orders in place of patches, then follows patches from it', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link);
    await s.start();
    f.view({ version: 14, view: { ...FIXTURE_VIEW, turn: 3 }, legal: [{ type: 'undo' }] });
    expect(s.version).toBe(14);
    expect(s.view?.turn).toBe(3);
    expect(s.legal).toEqual([{ type: 'undo' }]);
    f.patch({ from: 14, to: 15, ops: turn(4) });
    expect(s.view?.turn).toBe(4);
  });

  it('ignores patches of other worlds and old versions', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link);
    await s.start();
    f.patch({ worldId: 'w2', from: 12, to: 13, ops: turn(5) });
    f.patch({ from: 11, to: 12, ops: turn(6) });
    expect(s.view?.turn).toBe(2);
  });

  it('takes the legal orders a patch carries, and keeps those held when a patch carries none', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link);
    await s.start();
    f.patch({ from: 12, to: 13, ops: turn(3) });
    expect(s.legal).toEqual([{ type: 'endPhase' }]);
    f.patch({ from: 13, to: 14, ops: turn(3), legal: [{ type: 'undo' }] });
    expect(s.legal).toEqual([{ type: 'undo' }]);
    // A patch seen already (a stale order's answer carried it) still brings its legal orders.
    f.patch({ from: 13, to: 14, ops: turn(3), legal: [{ type: 'combatDone' }] });
    expect(s.legal).toEqual([{ type: 'combatDone' }]);
    expect(s.version).toBe(14);
  });

  it('takes the status a patch or a view carries, never an older one over a newer', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link);
    await s.start();
    const next = { ...status, version: 13, stepKey: '2|p|p2|movement', waitingFor: ['p2'] };
    f.patch({ from: 12, to: 13, ops: turn(3), status: next });
    expect(s.status).toEqual(next);
    f.patch({ from: 13, to: 14, ops: turn(3) });
    expect(s.status).toEqual(next);
    // A full view in place of patches brings the latest status with it.
    const ready = { ...next, version: 14, ready: ['p2'] };
    f.patch({ from: 14, to: 15, ops: turn(3) });
    f.view({ version: 15, view: { ...FIXTURE_VIEW, turn: 3 } });
    expect(s.status).toEqual(next);
    f.view({ version: 16, view: { ...FIXTURE_VIEW, turn: 4 }, status: ready });
    expect(s.status).toEqual(ready);
    // A patch applied already (from a stale order's answer) arrives late with the older status.
    f.patch({ from: 12, to: 13, ops: turn(3), status: next });
    expect(s.status).toEqual(ready);
  });

  it('resumes from its version after a reconnect, and after a reload from storage', async () => {
    const f = fakeLink();
    const mem = new Map<string, string>();
    const storage = {
      getItem: (k: string) => mem.get(k) ?? null,
      setItem: (k: string, v: string) => void mem.set(k, v),
    };
    const s = new WorldStore('w1', f.link, storage);
    await s.start();
    f.patch({ from: 12, to: 13, ops: turn(3) });
    f.reconnect();
    expect(f.calls.subscribe).toEqual([null, 13]);
    const again = fakeLink({
      kind: 'patches',
      patches: [{ worldId: 'w1', from: 13, to: 14, ops: turn(4), events: [] }],
    });
    const reloaded = new WorldStore('w1', again.link, storage);
    await reloaded.start();
    expect(again.calls.subscribe).toEqual([13]);
    expect(reloaded.view?.turn).toBe(4);
  });

  it('shows a refused order in words and resyncs on sync/stale', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link);
    await s.start();
    f.answer({ ok: false, error: { code: 'sync/stale' } });
    expect(await s.send({ type: 'endPhase' })).toBe(false);
    expect(s.error).toContain('refreshed');
    expect(f.calls.subscribe).toEqual([null, 12]);
  });

  it('counts unread chat per channel until the channel is opened', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link);
    await s.start();
    const msg = (id: string, from: string, to: string | null): ChatMessage => ({
      id,
      worldId: 'w1',
      from: { userId: `u-${from}`, username: from, playerId: from },
      to,
      body: 'hi',
      at: '2026-01-01T00:00:00Z',
    });
    f.chat(msg('1', 'p2', null));
    f.chat(msg('2', 'p2', 'p1'));
    f.chat(msg('3', 'p1', null));
    f.chat(msg('3', 'p1', null));
    expect(s.chat).toHaveLength(3);
    expect(s.unread).toEqual({ all: 1, p2: 1 });
    s.markRead('p2');
    f.chat(msg('4', 'p2', 'p1'));
    expect(s.unread).toEqual({ all: 1, p2: 0 });
  });

  it('keeps chat lines in the order written when one arrives late (caught up after a lost connection)', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link);
    await s.start();
    const msg = (id: string): ChatMessage => ({
      id,
      worldId: 'w1',
      from: { userId: 'u-p2', username: 'p2', playerId: 'p2' },
      to: null,
      body: `line ${id}`,
      at: '2026-01-01T00:00:00Z',
    });
    for (const id of ['9', '12', '10', '100', '11', '10']) f.chat(msg(id));
    expect(s.chat.map((m) => m.id)).toEqual(['9', '10', '11', '12', '100']);
  });

  it('drops a message a moderator deleted at once, with its unread count (chat/deleted)', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link);
    await s.start();
    const msg = (id: string, from: string): ChatMessage => ({
      id,
      worldId: 'w1',
      from: { userId: `u-${from}`, username: from, playerId: from },
      to: null,
      body: `message ${id}`,
      at: '2026-01-01T00:00:00Z',
    });
    f.chat(msg('1', 'p2'));
    f.chat(msg('2', 'p2'));
    expect(s.unread).toEqual({ all: 2 });
    f.chatDeleted('1', 'w2');
    expect(s.chat.map((m) => m.id)).toEqual(['1', '2']);
    f.chatDeleted('1');
    expect(s.chat.map((m) => m.id)).toEqual(['2']);
    expect(s.unread).toEqual({ all: 1 });
    s.markRead('all');
    f.chatDeleted('2');
    expect(s.chat).toEqual([]);
    expect(s.unread).toEqual({ all: 0 });
  });

  it('starts the event log from the recent events in the subscription (late joiner)', async () => {
    const recent: SubscribeResult['recent'] = [
      { seq: 11, index: 0, turn: 1, event: { type: 'turnEnded', turn: 1 } },
      { seq: 11, index: 1, turn: 2, event: { type: 'turnStarted', turn: 2 } },
      { seq: 12, index: 0, turn: 2, event: given({ type: 'moveOrderFixed' }) },
    ];
    const f = fakeLink({ kind: 'view', version: 12, view: FIXTURE_VIEW }, recent);
    const s = new WorldStore('w1', f.link);
    await s.start();
    expect(s.log.map((l) => [l.turn, l.event.type])).toEqual([
      [1, 'turnEnded'],
      [2, 'turnStarted'],
      [2, 'moveOrderFixed'],
    ]);
    // A later patch adds to it; a resubscribe with the same events does not repeat them.
    f.patch({ from: 12, to: 13, ops: turn(2), events: [given({ type: 'unitMoved' })] });
    recent.push({ seq: 13, index: 0, turn: 2, event: given({ type: 'unitMoved' }) });
    f.reconnect();
    await Promise.resolve();
    expect(s.log.map((l) => l.event.type)).toEqual([
      'turnEnded',
      'turnStarted',
      'moveOrderFixed',
      'unitMoved',
    ]);
  });

  it('drops the lines of orders a rollback undid as the rollback arrives, and after a reload', async () => {
    const recent: SubscribeResult['recent'] = [
      { seq: 10, index: 0, turn: 2, event: { type: 'turnStarted', turn: 2 } },
      { seq: 11, index: 0, turn: 2, event: given({ type: 'tribeSplit', player: 'p1' }) },
      { seq: 12, index: 0, turn: 2, event: given({ type: 'unitMoved', player: 'p1' }) },
    ];
    const storage = memoryStorage();
    const f = fakeLink({ kind: 'view', version: 12, view: FIXTURE_VIEW }, recent);
    const s = new WorldStore('w1', f.link, storage);
    await s.start();
    f.patch({ from: 12, to: 13, ops: turn(2), events: [{ type: 'worldRolledBack', turn: 2, toSeq: 10 }] });
    expect(s.log.map((l) => l.event.type)).toEqual(['turnStarted', 'worldRolledBack']);
    s.stop();
    // A reload restores the kept copy: still without the undone lines.
    const again = new WorldStore('w1', fakeLink({ kind: 'patches', patches: [] }, undefined).link, storage);
    await again.start();
    expect(again.log.map((l) => l.event.type)).not.toContain('tribeSplit');
  });

  it('asks for the history again after an order without events (an undo), and shows the server’s', async () => {
    const recent: SubscribeResult['recent'] = [
      { seq: 11, index: 0, turn: 2, event: given({ type: 'tribeSplit', player: 'p1' }) },
    ];
    const f = fakeLink({ kind: 'view', version: 12, view: FIXTURE_VIEW }, recent);
    const s = new WorldStore('w1', f.link);
    await s.start();
    expect(s.log.map((l) => l.event.type)).toEqual(['tribeSplit']);
    // The player takes the split back: the undo's patch has no events; the server's history no
    // longer has the split.
    recent.splice(0);
    f.patch({ from: 12, to: 13, ops: turn(2), events: [] });
    await new Promise((r) => setTimeout(r, 400));
    expect(f.calls.subscribe.at(-1)).toBe(13);
    expect(s.log).toEqual([]);
    s.stop();
  });
});
