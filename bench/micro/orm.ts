/**
 * Metric 12, in a process of its own: one order-log row written (A) by a plain INSERT through the
 * driver alone and (B) by the server's hot path — the one-statement compare-and-set append through
 * raw SQL (`appendOrders`). Target: the hot path's p50 ≤ 1.5× the plain INSERT. Prisma's own
 * `create` is timed beside them for information (why the append does not go through the ORM).
 */
import { appendOrders, type Database, migrateDatabase, openDatabase, pg } from '@bke/server';
import { serve } from '../lib/child.ts';
import type { BenchDatabase } from '../lib/database.ts';
import { absoluteCheck, type Check, ratioCheck } from '../lib/report.ts';
import { interleaved } from '../lib/rounds.ts';
import { pooled } from '../lib/stats.ts';

async function run(req: { db: BenchDatabase; perRound: number; rounds: number }): Promise<Check[]> {
  const db: Database = await openDatabase(
    req.db.kind === 'postgres' ? { kind: 'postgres', url: req.db.url, poolSize: 1 } : req.db,
  );
  let raw: pg.Client | null = null;
  try {
    await migrateDatabase(db);
    const user = await db.prisma.user.create({
      data: { username: 'b', usernameKey: 'b', passwordHash: 'x' },
    });
    const world = await db.prisma.world.create({
      data: { name: 'bench', setup: {}, rulesVersion: 'x', createdById: user.id },
    });
    const ormWorld = await db.prisma.world.create({
      data: { name: 'orm', setup: {}, rulesVersion: 'x', createdById: user.id },
    });
    const table =
      'CREATE TABLE bare_orders (world_id uuid, seq int, actor text, "order" jsonb, events jsonb, patch jsonb, PRIMARY KEY (world_id, seq))';
    const insert = 'INSERT INTO bare_orders VALUES ($1, $2, $3, $4, $5, $6)';
    let plain: (params: unknown[]) => Promise<unknown>;
    if (req.db.kind === 'postgres') {
      const client = new pg.Client({ connectionString: req.db.url });
      raw = client;
      await client.connect();
      await client.query(table);
      plain = (values) => client.query({ name: 'bare', text: insert, values });
    } else {
      await db.sql(table);
      plain = (values) => db.sql(insert, values);
    }
    const order = { type: 'move', unit: 'u7', path: ['sarmatia', 'dacia'] };
    const events = [{ type: 'unitMoved', player: 'p1', unit: 'u7', path: ['sarmatia', 'dacia'] }];
    const patch = [
      { op: 'replace', path: '/units/u7/area', value: 'dacia' },
      { op: 'replace', path: '/version', value: 1 },
    ];
    let seqBare = 0;
    let seqHot = 0;
    let seqOrm = 0;
    const times = async (fn: () => Promise<unknown>) => {
      const xs: number[] = [];
      for (let i = 0; i < req.perRound; i++) {
        const t = performance.now();
        await fn();
        xs.push(performance.now() - t);
      }
      return xs;
    };
    const bare = () =>
      plain([
        world.id,
        ++seqBare,
        'p1',
        JSON.stringify(order),
        JSON.stringify(events),
        JSON.stringify(patch),
      ]);
    const hot = async () => {
      const from = seqHot;
      const ok = await appendOrders(
        db,
        world.id,
        from,
        // An order within a step (most of them): the head stays, only the log is written.
        null,
        [
          {
            seq: from + 1,
            actor: 'p1',
            userId: null,
            kind: 'player',
            order,
            events: events as never,
            patch: patch as never,
          },
        ],
      );
      if (!ok) throw new Error('append refused');
      seqHot++;
    };
    const orm = () =>
      db.prisma.worldOrder.create({
        data: { worldId: ormWorld.id, seq: ++seqOrm, actor: 'p1', kind: 'player', order, events, patch },
      });
    const r = await interleaved(req.rounds, { A: () => times(bare), B: () => times(hot) });
    const o = await interleaved(req.rounds, { A: () => times(bare), B: () => times(orm) });
    const a = pooled(r.A);
    const b = pooled(r.B);
    const c = pooled(o.B);
    return [
      ratioCheck(
        '12',
        '—',
        'order append p50, hot path (raw SQL compare-and-set) vs plain INSERT',
        b.p50,
        a.p50,
        ' ms',
        { max: 1.5 },
        {
          p99: b.p99,
          baselineP99: a.p99,
          roundsP50: b.rounds.map((x) => Number(x.p50.toFixed(3))),
        },
      ),
      {
        ...absoluteCheck(
          '12',
          '—',
          'Prisma create p50 vs plain INSERT (information)',
          c.p50 / pooled(o.A).p50,
          '×',
          { min: 0 },
        ),
        target: 'info',
      },
    ];
  } finally {
    await raw?.end();
    await db.close();
  }
}

serve({ run: (req: { db: BenchDatabase; perRound: number; rounds: number }) => run(req) });
