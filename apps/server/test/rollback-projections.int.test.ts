/**
 * A rollback rewrites the cycle and VP-ledger projections (the chronicle and the turn record sheet,
 * 14.3.3) from the rows the undone orders wrote, not by replaying the log from the created game:
 * what it leaves equals the whole re-projection (`rebuild --repair`), across new cycles, an
 * abandoned position, a player who joined late and earlier rollbacks, in a transaction as the HTTP
 * route runs it; and the list of turns to go back to equals the whole-log replay's. Neither reads
 * the log before the nearest kept snapshot: with an early order broken (it no longer applies) both
 * still work.
 */
import { createBot, type PlayerId, type Policy } from '@bke/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../src/db/transaction.ts';
import { lastWrites } from '../src/moderation/reproject.ts';
import { listTurnStarts, rollbackWorld } from '../src/moderation/rollback.ts';
import { WorldHub } from '../src/worlds/hub.ts';
import { rebuildWorld } from '../src/worlds/rebuild.ts';
import { playBots, quietModContext, worldOfBots } from './helpers/bot-world.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';
import { replayTimeline } from './helpers/timeline.ts';

let t: TestDatabase;
let hub: WorldHub;
let worldId: string;
let userId: string;
const policy = createBot('strong', 'rollback-projections');

beforeAll(async () => {
  t = await openTestDatabase();
  hub = new WorldHub(t.db);
  ({ worldId, userId } = await worldOfBots(t.db, hub, {
    account: 'projector',
    name: 'Projected',
    seed: 'rollback-projections',
    victory: 'advanced',
    level: 'strong',
  }));
});
afterAll(async () => {
  await t?.dispose();
});

const ctx = () => quietModContext(t.db, hub);

async function runtime() {
  const rt = await hub.get(worldId);
  if (!rt) throw new Error('no world');
  return rt;
}

/**
 * Plays the simulator's orders until game turn `turn` has begun; `abandonAt` makes p1 abandon its
 * position (14.3) in that turn, so its cycle ends and a new one starts the turn after.
 */
async function playUntilTurn(turn: number, abandonAt?: number): Promise<void> {
  let abandoned = false;
  const abandoning: Policy = {
    choose(engine, state, p) {
      if (
        !abandoned &&
        p === 'p1' &&
        state.turn === abandonAt &&
        engine.legalOrders(state, p).some((o) => o.type === 'declareAbandon' && o.abandon)
      ) {
        abandoned = true;
        return { type: 'declareAbandon', abandon: true };
      }
      return policy.choose(engine, state, p);
    },
  };
  await playBots(hub, worldId, abandoning, (now) => now >= turn);
  if (abandonAt !== undefined && !abandoned) throw new Error(`p1 could not abandon at turn ${abandonAt}`);
}

/** Plays `n` more of the simulator's orders. */
const playOrders = (n: number) => playBots(hub, worldId, policy, (_turn, given) => given >= n);

interface Projections {
  cycles: Record<string, unknown>[];
  ledger: { player_id: string; cycle: number; turn: number; column: string; seq: number }[];
}

async function projections(): Promise<Projections> {
  const cycles = await t.db.sql<Record<string, unknown>>(
    `SELECT player_id, number, position, start_turn, kingdom_turn, empire_turn, end_turn, end_reason, vp,
            updated_seq
       FROM world_cycles WHERE world_id = $1 ORDER BY player_id, number`,
    [worldId],
  );
  const ledger = await t.db.sql<Projections['ledger'][number]>(
    `SELECT player_id, cycle, turn, "column", value, detail, seq
       FROM vp_ledger WHERE world_id = $1 ORDER BY player_id, cycle, turn, "column"`,
    [worldId],
  );
  return { cycles, ledger };
}

/** The projections as `rebuild --repair` writes them: the whole live timeline projected again. */
async function wholeReprojection(): Promise<Projections> {
  const report = await rebuildWorld(t.db, worldId, { repair: true });
  expect(report.problems).toEqual([]);
  return projections();
}

/** A rollback as the HTTP route runs it: in the world's queue, caught up, in a transaction. */
async function rollbackInTransaction(turn: number) {
  const rt = await runtime();
  return rt.run(async () => {
    await rt.catchUp();
    await rt.persisted();
    return inTransaction(t.db, (tx) => rollbackWorld({ ...ctx(), db: tx, world: rt }, worldId, turn, userId));
  });
}

async function expectTurnListAsReplayed(): Promise<void> {
  const rt = await runtime();
  const { starts } = await replayTimeline(t.db, worldId, rt.version);
  const whole = [...starts.values()]
    .sort((a, b) => a.turn - b.turn)
    .map((s) => ({ turn: s.turn, seq: s.seq }));
  const listed = await listTurnStarts(ctx(), worldId);
  expect(listed.ok && listed.turns.map(({ turn, seq }) => ({ turn, seq }))).toEqual(whole);
}

describe('rollback and the projections', () => {
  it('leaves the projections the whole re-projection writes, undone turns and cycles gone', async () => {
    await playUntilTurn(3);
    expect((await hub.addBot(worldId, 'strong', userId)).ok).toBe(true);
    await playUntilTurn(6, 5);
    await playUntilTurn(16);
    const played = await projections();
    // What the rollbacks below must take back is there: a new cycle of p1 after its abandon, the
    // late joiner's cycle, kingdoms founded (10.1), VP won, sheet rows in every turn.
    const cycleOf = (p: Projections, player: string, n: number) =>
      p.cycles.find((c) => c.player_id === player && c.number === n);
    expect(cycleOf(played, 'p1', 1)?.end_reason).toBe('abandoned');
    expect(cycleOf(played, 'p1', 2)?.start_turn).toBeGreaterThanOrEqual(6);
    expect(cycleOf(played, 'p4', 1)?.start_turn).toBeGreaterThanOrEqual(4);
    for (let turn = 2; turn <= 15; turn++)
      expect(
        played.ledger.some((r) => r.turn === turn),
        `turn ${turn}`,
      ).toBe(true);
    const founded = played.cycles.filter((c) => typeof c.kingdom_turn === 'number');
    expect(founded.length).toBeGreaterThan(0);
    expect(played.cycles.some((c) => (c.vp as number) > 0)).toBe(true);
    await expectTurnListAsReplayed();

    // Back to the turn the latest kingdom was founded in, outside a transaction: that kingdom is a
    // tribe again on the chronicle, and every running cycle loses the VP of the undone turns.
    const kingdomTurn = Math.max(...founded.map((c) => c.kingdom_turn as number));
    const newest = founded.find((c) => c.kingdom_turn === kingdomTurn)!;
    expect((await rollbackWorld(ctx(), worldId, kingdomTurn, userId)).ok).toBe(true);
    const first = await projections();
    expect(first.ledger.some((r) => r.turn > kingdomTurn)).toBe(false);
    expect(cycleOf(first, newest.player_id as string, newest.number as number)?.kingdom_turn).toBeNull();
    expect(first).toEqual(await wholeReprojection());
    await expectTurnListAsReplayed();

    // Play on, then back past the first rollback and p1's abandon, in a transaction: p1's second
    // cycle goes, its first runs again, the late joiner's stays.
    await playUntilTurn(kingdomTurn + 2);
    const replayed = await projections();
    expect((await rollbackInTransaction(5)).ok).toBe(true);
    const second = await projections();
    expect(second).not.toEqual(replayed);
    expect(cycleOf(second, 'p1', 2)).toBeUndefined();
    expect(cycleOf(second, 'p1', 1)?.end_turn).toBeNull();
    expect(cycleOf(second, 'p4', 1)).toBeDefined();
    expect(second).toEqual(await wholeReprojection());
    await expectTurnListAsReplayed();

    // Back to the current turn's own start, then to the created game's turn: nothing is left.
    await playUntilTurn(7);
    await playOrders(5);
    expect((await rollbackWorld(ctx(), worldId, 7, userId)).ok).toBe(true);
    expect(await projections()).toEqual(await wholeReprojection());
    const list = await listTurnStarts(ctx(), worldId);
    const firstTurn = list.ok ? list.turns[0]?.turn : undefined;
    if (firstTurn === undefined) throw new Error('no turns listed');
    expect((await rollbackInTransaction(firstTurn)).ok).toBe(true);
    const none = await projections();
    expect(none).toEqual({ cycles: [], ledger: [] });
    expect(none).toEqual(await wholeReprojection());
    await expectTurnListAsReplayed();
  }, 300_000);

  it('reads nothing before the nearest snapshot: an early order that no longer applies stops neither', async () => {
    // The last rollback took the world back to before anyone joined: new players sit down.
    for (let i = 0; i < 3; i++) expect((await hub.addBot(worldId, 'strong', userId)).ok).toBe(true);
    await playUntilTurn(8);
    const rt = await runtime();
    await expectTurnListAsReplayed();
    const listedBefore = await listTurnStarts(ctx(), worldId);
    const [early] = await t.db.sql<{ seq: number; order: unknown }>(
      `SELECT seq, "order" FROM world_orders WHERE world_id = $1 AND kind = 'bot' ORDER BY seq LIMIT 1`,
      [worldId],
    );
    if (!early) throw new Error('no early order');
    await t.db.sql(
      `UPDATE world_orders SET "order" = '{"type":"noSuchOrder"}' WHERE world_id = $1 AND seq = $2`,
      [worldId, early.seq],
    );
    let rolled: Projections | undefined;
    try {
      // The whole-log replay stops on the broken order; the list and the rollback do not.
      await expect(replayTimeline(t.db, worldId, rt.version)).rejects.toThrow(/no longer applies/);
      expect(await listTurnStarts(ctx(), worldId)).toEqual(listedBefore);
      const back = await rollbackInTransaction(6);
      if (!back.ok) throw new Error(JSON.stringify(back.error));
      rolled = await projections();
      // Sheet rows of turn 6 and later: only what the order that began turn 6 wrote.
      const toSeq = back.params.toSeq;
      expect(rolled.ledger.filter((r) => r.turn >= 6).every((r) => r.seq === toSeq)).toBe(true);
    } finally {
      await t.db.sql(`UPDATE world_orders SET "order" = $3::jsonb WHERE world_id = $1 AND seq = $2`, [
        worldId,
        early.seq,
        JSON.stringify(early.order),
      ]);
    }
    expect(rolled).toEqual(await wholeReprojection());
  }, 120_000);

  it("reads a running cycle's VP and last order back from the log as the projection has them, after any order", async () => {
    const rt = await runtime();
    const until = rt.state.turn + 2;
    let checked = 0;
    while (rt.state.turn < until) {
      await playOrders(1);
      const rows = await t.db.sql<{ player_id: string; number: number; vp: number; updated_seq: number }>(
        'SELECT player_id, number, vp, updated_seq FROM world_cycles WHERE world_id = $1',
        [worldId],
      );
      // Earlier tests rolled this world back: the orders they undid are skipped.
      const rollbacks = await t.db.sql<{ seq: number; to_seq: number }>(
        `SELECT seq, ("order"->>'toSeq')::int AS to_seq FROM world_orders WHERE world_id = $1 AND kind = 'rollback'`,
        [worldId],
      );
      const undone = (seq: number) => rollbacks.some((r) => seq > r.to_seq && seq < r.seq);
      for (const p of rt.state.players) {
        const row = rows.find((r) => r.player_id === p.id && r.number === p.cycle?.number);
        if (!row) continue;
        expect(
          await lastWrites(t.db, worldId, rt.version, p.id, row.number, undone),
          `${p.id} at ${rt.version}`,
        ).toEqual({
          vp: row.vp,
          seq: row.updated_seq,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  }, 120_000);

  it('projects each order of a many-order commit with the state it left, across turn ends', async () => {
    // Missed deadlines commit several players' defaults at once, and such a batch may end a turn:
    // each order's rows must carry its own turn and cycle, as the whole re-projection gives them.
    const rt = await runtime();
    const until = rt.state.turn + 3;
    let crossed = 0;
    while (rt.state.turn < until) {
      const r = await rt.run(async () => {
        const batch: Parameters<typeof rt.commit>[0] = [];
        let s = rt.state;
        for (let i = 0; i < 12; i++) {
          const p = hub.engine.waitingFor(s)[0] as PlayerId | undefined;
          if (!p) break;
          const order = policy.choose(hub.engine, s, p) ?? hub.engine.timeoutOrders(s, p)[0];
          const played = hub.engine.applyOrder(s, p, order);
          if (!played.ok) throw new Error(played.error.code);
          batch.push({ actor: p, userId: null, kind: 'bot', order, applied: played.value });
          if (played.value.state.turn !== s.turn && i < 11) crossed++;
          s = played.value.state;
        }
        return rt.commit(batch);
      });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
    }
    await rt.settled();
    expect(crossed).toBeGreaterThan(0);
    const live = await projections();
    expect(live).toEqual(await wholeReprojection());
  }, 120_000);
});
