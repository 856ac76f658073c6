/**
 * Worlds recorded by an older engine keep loading and replaying. The fixture is a world recorded
 * the way the server stores one (setup, log rows with their events and public-view patches,
 * snapshots with their hashes) by the engine of state schema 1, which kept the whole record sheet
 * and every finished cycle in the state: four players joining, then 30 game turns of the
 * simulator's policy, with kingdoms, empires and ended cycles.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createEngine, type GameEvent, type GameState, STATE_SCHEMA, upgradeState } from '../../src/index.ts';

interface Recorded {
  setup: unknown;
  version: number;
  finalHash: string;
  orders: { seq: number; actor: string; order: unknown; events: GameEvent[]; patch: unknown[] }[];
  snapshots: { seq: number; state: unknown; hash: string }[];
}

const recorded = JSON.parse(
  gunzipSync(
    readFileSync(new URL('../fixtures/world-before-compact-state.json.gz', import.meta.url)),
  ).toString(),
) as Recorded;

describe('a world recorded with state schema 1', () => {
  const engine = createEngine();
  const snapshots = new Map(recorded.snapshots.map((s) => [s.seq, s]));

  it('is of the old shape: the whole sheet and the past cycles in every snapshot', () => {
    const last = recorded.snapshots.at(-1)!.state as {
      schema: number;
      realm: { ledger: unknown[] };
      players: { pastCycles: unknown[] }[];
    };
    expect(last.schema).toBe(1);
    expect(last.realm.ledger.length).toBeGreaterThan(100);
    expect(last.players.some((p) => p.pastCycles.length > 1)).toBe(true);
    expect(STATE_SCHEMA).toBe(2);
  });

  it('replays through today’s engine with the same events, and every upgraded snapshot equals the replay', () => {
    const created = engine.createGame(recorded.setup);
    if (!created.ok) throw new Error(created.error.code);
    let state: GameState = created.value;
    expect(engine.hash(upgradeState(snapshots.get(0)!.state))).toBe(engine.hash(state));
    let checked = 0;
    for (const row of recorded.orders) {
      const r = engine.applyOrder(state, row.actor as never, row.order);
      if (!r.ok) throw new Error(`order ${row.seq}: ${r.error.code}`);
      state = r.value.state;
      expect(r.value.events).toEqual(row.events);
      const snap = snapshots.get(row.seq);
      if (snap) {
        const upgraded = upgradeState(snap.state);
        expect(engine.hash(upgraded)).toBe(engine.hash(state));
        checked++;
      }
    }
    expect(checked).toBe(recorded.snapshots.length - 1);
    expect(state.players.map((p) => p.finished.count)).toEqual([1, 1, 2, 2]);
    // The totals are those of the old past cycles.
    const old = recorded.snapshots.at(-1)!.state as { players: { pastCycles: { vp: number }[] }[] };
    expect(state.players.map((p) => p.finished.totalVp)).toEqual(
      old.players.map((p) => p.pastCycles.reduce((s, c) => s + c.vp, 0)),
    );
  }, 120_000);

  it('loads from a mid-game snapshot and plays on to the same end as a replay from the start', () => {
    const mid = recorded.snapshots[Math.floor(recorded.snapshots.length / 2)]!;
    let state = upgradeState(mid.state);
    for (const row of recorded.orders.filter((o) => o.seq > mid.seq)) {
      const r = engine.applyOrder(state, row.actor as never, row.order);
      if (!r.ok) throw new Error(`order ${row.seq}: ${r.error.code}`);
      state = r.value.state;
    }
    const end = upgradeState(recorded.snapshots.at(-1)!.state);
    expect(engine.hash(state)).toBe(engine.hash(end));
    // The state no longer carries the history: one turn's sheet rows at most per player.
    expect(state.realm?.sheet.length).toBeLessThanOrEqual(state.players.length);
    expect(JSON.stringify(state).length).toBeLessThan(
      JSON.stringify(recorded.snapshots.at(-1)!.state).length / 3,
    );
  }, 120_000);

  it('an upgraded state is left alone; a state of an unknown schema is refused', () => {
    const now = upgradeState(recorded.snapshots[1]!.state);
    expect(upgradeState(now)).toBe(now);
    expect(() => upgradeState({ ...now, schema: 99 })).toThrow(/unknown schema/);
  });
});
