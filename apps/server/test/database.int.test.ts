import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, readMigrations } from '../src/db/migrate.ts';
import { openTestDatabase, type TestDatabase } from './helpers/test-database.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t?.dispose());

describe('database', () => {
  it('runs on PostgreSQL when DATABASE_URL is set, else on the embedded one', () => {
    expect(t.db.kind).toBe(process.env.DATABASE_URL ? 'postgres' : 'embedded');
  });

  it('records every committed migration as `prisma migrate deploy` does', async () => {
    const { migrationDirectories } = await readMigrations();
    const rows = await t.db.prisma.$queryRaw<
      { migration_name: string; finished_at: Date | null; applied_steps_count: number }[]
    >`
      SELECT migration_name, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name`;
    expect(rows.map((r) => r.migration_name)).toEqual(migrationDirectories.map((m) => m.path));
    expect(rows.every((r) => r.finished_at !== null && r.applied_steps_count === 1)).toBe(true);
  });

  it('applies nothing the second time', async () => {
    expect(await migrateDatabase(t.db)).toEqual([]);
  });

  it('stores and reads users, sessions and worlds through Prisma', async () => {
    const user = await t.db.prisma.user.create({
      data: { username: 'Alaric', usernameKey: 'alaric', passwordHash: 'scrypt$x' },
    });
    await t.db.prisma.session.create({
      data: { id: 'hash-1', userId: user.id, expiresAt: new Date(Date.now() + 60_000) },
    });
    const world = await t.db.prisma.world.create({
      data: { name: 'Test world', setup: { seed: 1 }, rulesVersion: '1', createdById: user.id },
    });
    const found = await t.db.prisma.user.findUniqueOrThrow({
      where: { usernameKey: 'alaric' },
      include: { sessions: true, worlds: true },
    });
    expect(found.role).toBe('player');
    expect(found.sessions).toHaveLength(1);
    expect(found.worlds.map((w) => w.id)).toEqual([world.id]);
    await expect(
      t.db.prisma.user.create({ data: { username: 'ALARIC', usernameKey: 'alaric', passwordHash: 'x' } }),
    ).rejects.toThrow();
  });

  it('rolls back a failed transaction', async () => {
    await expect(
      t.db.prisma.$transaction(async (tx) => {
        await tx.user.create({ data: { username: 'Ghost', usernameKey: 'ghost', passwordHash: 'x' } });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await t.db.prisma.user.count({ where: { usernameKey: 'ghost' } })).toBe(0);
  });
});
