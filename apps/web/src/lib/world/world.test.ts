import { describe, expect, it } from 'vitest';
import { FIXTURE_VIEW } from '../../test/fixtures.ts';
import type { Order } from '../wire.ts';
import type { Ack, ChatMessage, FullView, Patch, WorldHandlers, WorldLink } from './link.ts';
import { WorldStore } from './world.svelte.ts';

function fakeLink() {
  const calls: { watch: (number | null)[]; orders: Order[] } = { watch: [], orders: [] };
  let handlers: WorldHandlers | null = null;
  let reconnect: (() => void) | null = null;
  let answer: Ack = { ok: true };
  const link: WorldLink = {
    async watch(_id, version) {
      calls.watch.push(version);
      return { ok: true };
    },
    unwatch() {},
    async order(_id, _v, o) {
      calls.orders.push(o);
      return answer;
    },
    async chat() {
      return { ok: true };
    },
    subscribe(h) {
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
    push: {
      view: (v: FullView) => handlers?.view(v),
      patch: (p: Patch) => handlers?.patch(p),
      chat: (m: ChatMessage) => handlers?.chat(m),
    },
    reconnect: () => reconnect?.(),
    answer: (a: Ack) => {
      answer = a;
    },
  };
}

const full: FullView = {
  worldId: 'w1',
  version: 12,
  view: FIXTURE_VIEW,
  legal: [{ type: 'endPhase' }],
  meta: { id: 'w1', name: 'Test', deadline: null },
};

describe('WorldStore', () => {
  it('applies patches in order and asks for a resync on a gap', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link, () => 'p1');
    await s.start();
    expect(f.calls.watch).toEqual([null]);
    f.push.view(full);
    f.push.patch({
      worldId: 'w1',
      from: 12,
      to: 13,
      ops: [{ op: 'replace', path: '/turn', value: 3 }],
      events: [],
    });
    expect(s.view?.turn).toBe(3);
    expect(s.version).toBe(13);
    f.push.patch({
      worldId: 'w1',
      from: 15,
      to: 16,
      ops: [{ op: 'replace', path: '/turn', value: 9 }],
      events: [],
    });
    expect(s.view?.turn).toBe(3);
    expect(f.calls.watch).toEqual([null, 13]);
  });

  it('ignores patches of other worlds and old versions', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link, () => 'p1');
    await s.start();
    f.push.view(full);
    f.push.patch({
      worldId: 'w2',
      from: 12,
      to: 13,
      ops: [{ op: 'replace', path: '/turn', value: 5 }],
      events: [],
    });
    f.push.patch({
      worldId: 'w1',
      from: 11,
      to: 12,
      ops: [{ op: 'replace', path: '/turn', value: 6 }],
      events: [],
    });
    expect(s.view?.turn).toBe(2);
  });

  it('resumes from its version after a reconnect', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link, () => 'p1');
    await s.start();
    f.push.view(full);
    f.reconnect();
    expect(f.calls.watch).toEqual([null, 12]);
  });

  it('shows a refused order in words and resyncs on sync/stale', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link, () => 'p1');
    await s.start();
    f.push.view(full);
    f.answer({ ok: false, error: { code: 'sync/stale' } });
    expect(await s.send({ type: 'endPhase' })).toBe(false);
    expect(s.error).toContain('refreshed');
    expect(f.calls.watch).toEqual([null, 12]);
  });

  it('counts unread chat per channel until the channel is opened', async () => {
    const f = fakeLink();
    const s = new WorldStore('w1', f.link, () => 'p1');
    await s.start();
    const msg = (id: string, from: string, to: string | null): ChatMessage => ({
      id,
      worldId: 'w1',
      from: { id: from, name: from },
      to,
      text: 'hi',
      at: '2026-01-01T00:00:00Z',
    });
    f.push.chat(msg('1', 'p2', null));
    f.push.chat(msg('2', 'p2', 'p1'));
    f.push.chat(msg('3', 'p1', null));
    expect(s.unread).toEqual({ all: 1, p2: 1 });
    s.markRead('p2');
    f.push.chat(msg('4', 'p2', 'p1'));
    expect(s.unread).toEqual({ all: 1, p2: 0 });
  });
});
