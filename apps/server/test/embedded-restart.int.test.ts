import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { migrateDatabase } from '../src/db/migrate.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('embedded PostgreSQL', () => {
  it('keeps its data in its folder across a restart', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'bke-pglite-'));
    dirs.push(dataDir);

    const first = await openDatabase({ kind: 'embedded', dataDir });
    expect((await migrateDatabase(first)).length).toBeGreaterThan(0);
    await first.prisma.user.create({
      data: { username: 'Fritigern', usernameKey: 'fritigern', passwordHash: 'x' },
    });
    await first.close();

    const second = await openDatabase({ kind: 'embedded', dataDir });
    expect(await migrateDatabase(second)).toEqual([]);
    expect(await second.prisma.user.findUnique({ where: { usernameKey: 'fritigern' } })).toMatchObject({
      username: 'Fritigern',
    });
    await second.close();
  });

  it('lets the event loop run between statements (sockets and timers are not starved)', async () => {
    const db = await openDatabase({ kind: 'embedded', dataDir: 'memory://' });
    await migrateDatabase(db);
    // A chain of awaited statements, as a world's queue of orders runs them: a callback queued on
    // the event loop before the chain must run before the chain ends, as it would with a
    // PostgreSQL server. Without the yield it ran only after the last statement.
    for (const run of [() => db.sql('SELECT 1'), () => db.prisma.user.count()]) {
      let ran = false;
      setImmediate(() => {
        ran = true;
      });
      let ranBeforeLast = false;
      for (let i = 0; i < 20; i++) {
        await run();
        if (i === 18) ranBeforeLast = ran;
      }
      expect(ranBeforeLast).toBe(true);
    }
    await db.close();
  });
});
