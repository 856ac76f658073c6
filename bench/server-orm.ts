/**
 * Metric 12: ORM overhead on the hot path. One order-log row written (a) by a plain `pg` INSERT,
 * (b) by the server's hot path — the one-statement compare-and-set append through raw SQL — and
 * (c) by Prisma's `create` through its pg adapter. Target: the hot path's p50 ≤ 1.5× plain pg; the
 * Prisma figure is printed to show why the append does not go through the ORM.
 * Needs PostgreSQL (DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres); each run
 * makes and drops its own database. Rounds interleave A B C A B C; ratios are medians of rounds.
 */
import { randomBytes } from 'node:crypto';
import { appendOrders, migrateDatabase, openDatabase, pg } from '@bke/server';

import { check, median, quantile, report } from './_server-lib.ts';

const SERVER = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const ROUNDS = 5;
const PER_ROUND = 300;

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: SERVER });
  await c.connect();
  await c.query(sql);
  await c.end();
}
const name = `bke_bench_${randomBytes(4).toString('hex')}`;
await admin(`CREATE DATABASE "${name}"`);
const url = new URL(SERVER);
url.pathname = `/${name}`;
try {
  const db = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
  await migrateDatabase(db);
  const user = await db.prisma.user.create({ data: { username: 'b', usernameKey: 'b', passwordHash: 'x' } });
  const world = await db.prisma.world.create({
    data: { name: 'bench', setup: {}, rulesVersion: 'x', createdById: user.id },
  });
  const raw = new pg.Client({ connectionString: url.toString() });
  await raw.connect();
  await raw.query(
    'CREATE TABLE bare_orders (world_id uuid, seq int, actor text, "order" jsonb, events jsonb, patch jsonb, PRIMARY KEY (world_id, seq))',
  );
  const order = { type: 'move', unit: 'u7', path: ['sarmatia', 'dacia'] };
  const events = [{ type: 'unitMoved', player: 'p1', unit: 'u7', path: ['sarmatia', 'dacia'] }];
  const patch = [
    { op: 'replace', path: '/units/u7/area', value: 'dacia' },
    { op: 'replace', path: '/version', value: 1 },
  ];
  let seqBare = 0;
  let seqHot = 0;
  let seqOrm = 0;
  const lat = async (fn: () => Promise<unknown>) => {
    const xs: number[] = [];
    for (let i = 0; i < PER_ROUND; i++) {
      const t = performance.now();
      await fn();
      xs.push(performance.now() - t);
    }
    return xs;
  };
  const bare = () =>
    raw.query('INSERT INTO bare_orders VALUES ($1, $2, $3, $4, $5, $6)', [
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
      { version: from + 1, stepKey: '1|p1|movement', deadlineAt: null, status: 'running' },
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
  const ormWorld = await db.prisma.world.create({
    data: { name: 'orm', setup: {}, rulesVersion: 'x', createdById: user.id },
  });
  const orm = () =>
    db.prisma.worldOrder.create({
      data: { worldId: ormWorld.id, seq: ++seqOrm, actor: 'p1', kind: 'player', order, events, patch },
    });
  const r = {
    bare: [] as number[],
    hot: [] as number[],
    orm: [] as number[],
    hotRatio: [] as number[],
    ormRatio: [] as number[],
  };
  await lat(bare); // warm-up
  seqBare = 1000000;
  for (let i = 0; i < ROUNDS; i++) {
    const b = median(await lat(bare));
    const h = median(await lat(hot));
    const o = median(await lat(orm));
    r.bare.push(b);
    r.hot.push(h);
    r.orm.push(o);
    r.hotRatio.push(h / b);
    r.ormRatio.push(o / b);
  }
  await raw.end();
  await db.close();
  const checks = [
    check(
      '12',
      'order append p50, hot path (raw SQL CAS) vs plain pg INSERT',
      median(r.hot),
      median(r.bare),
      1.5,
      ' ms',
      median(r.hotRatio),
    ),
    {
      ...check(
        '12',
        'Prisma create p50 vs plain pg INSERT (information: why the hot path is raw)',
        median(r.orm),
        median(r.bare),
        1.5,
        ' ms',
        median(r.ormRatio),
      ),
      pass: true,
      target: 'info',
    },
  ];
  console.log(
    `p99 ms: bare ${quantile(r.bare, 0.99).toFixed(3)}, hot ${quantile(r.hot, 0.99).toFixed(3)}, prisma ${quantile(r.orm, 0.99).toFixed(3)}`,
  );
  process.exitCode = report('server-orm', checks, { rounds: ROUNDS, perRound: PER_ROUND, raw: r });
} finally {
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
