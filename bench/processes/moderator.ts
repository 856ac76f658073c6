/**
 * A moderator on the world that has run 300 game turns, in a process of its own after the server
 * under test has stopped (the embedded database is one process's): (B) the list of turns to go back
 * to, then a rollback of one game turn with its re-projection of the cycles and the VP ledger,
 * against (A) the whole log replayed through the engine from the created game (`npm run rebuild`'s
 * check, without repair), which each rollback and each list of turns did before. Rounds alternate
 * A B, B A, …; each rollback goes one turn further back, so each undoes a whole game turn.
 */
import {
  type Database,
  listTurnStarts,
  type ModContext,
  openDatabase,
  rebuildWorld,
  rollbackWorld,
  WorldHub,
} from '@bke/server';
import { serve } from '../lib/child.ts';
import type { BenchDatabase } from '../lib/database.ts';
import { absoluteCheck, type Check, ratioCheck } from '../lib/report.ts';
import { interleaved } from '../lib/rounds.ts';
import { pooled } from '../lib/stats.ts';

interface Round {
  ms: number;
  listMs: number;
}

async function run(req: { db: BenchDatabase; worldId: string; rounds: number }): Promise<Check[]> {
  const db: Database = await openDatabase(
    req.db.kind === 'postgres' ? { kind: 'postgres', url: req.db.url, poolSize: 2 } : req.db,
  );
  try {
    const hub = new WorldHub(db);
    const rt = await hub.get(req.worldId);
    if (!rt) throw new Error(`world ${req.worldId} not found`);
    const [actor] = await db.sql<{ id: string }>('SELECT id FROM users ORDER BY created_at LIMIT 1');
    if (!actor) throw new Error('no account to act as');
    const ctx: ModContext = {
      db,
      hub,
      notify: { notice: async () => undefined, account: async () => {} } as unknown as ModContext['notify'],
    };
    const startTurn = rt.state.turn;
    let turn = startTurn;
    let turnsListed = 0;
    const rounds = await interleaved<Round>(req.rounds, {
      A: async () => {
        const t0 = performance.now();
        const report = await rebuildWorld(db, req.worldId);
        if (report.problems.length) throw new Error(`replay: ${report.problems[0]}`);
        return { ms: performance.now() - t0, listMs: 0 };
      },
      B: async () => {
        const t0 = performance.now();
        const listed = await listTurnStarts(ctx, req.worldId);
        const t1 = performance.now();
        if (!listed.ok) throw new Error(`list: ${listed.error.code}`);
        turnsListed = listed.turns.length;
        turn -= 1;
        const back = await rollbackWorld(ctx, req.worldId, turn, actor.id);
        if (!back.ok) throw new Error(`rollback to turn ${turn}: ${back.error.code}`);
        await rt.persisted();
        return { ms: performance.now() - t1, listMs: t1 - t0 };
      },
    });
    const whole = pooled([rounds.A.map((r) => r.ms)]);
    const rollback = pooled([rounds.B.map((r) => r.ms)]);
    const list = pooled([rounds.B.map((r) => r.listMs)]);
    const fixture = `turn ${startTurn}`;
    return [
      ratioCheck(
        'LW',
        fixture,
        'moderator rollback of one game turn (re-projection included) vs the whole-log replay it used to run, p50',
        rollback.p50,
        whole.p50,
        ' ms',
        { max: 0.1 },
        { rollbackMs: rounds.B.map((r) => r.ms), wholeReplayMs: rounds.A.map((r) => r.ms) },
      ),
      {
        ...absoluteCheck(
          'LW',
          fixture,
          `moderators' list of turns (${turnsListed} turns, read from the log), p50`,
          list.p50,
          ' ms',
          { min: 0 },
          { listMs: rounds.B.map((r) => r.listMs) },
        ),
        target: 'info',
      },
    ];
  } finally {
    await db.close();
  }
}

serve({ run: (req: { db: BenchDatabase; worldId: string; rounds: number }) => run(req) });
