import { defineConfig } from 'vitest/config';

// Three projects: fast pure unit tests, integration tests that talk to a real PostgreSQL
// (DATABASE_URL when set, else an embedded PGlite) or to a running server, and the web client's
// component tests (Svelte in jsdom).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Simulated games in unit tests take seconds on a busy 2-core machine; Vitest's 5 s
          // default failed them there without anything being wrong.
          testTimeout: 30_000,
          include: [
            'packages/*/src/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**', 'apps/web/**'],
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        root: './apps/web',
        resolve: { conditions: ['browser'] },
        test: {
          name: 'web',
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
          include: ['src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/*/test/**/*.int.test.ts', 'packages/*/test/**/*.int.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // On a PostgreSQL server every file has a database of its own, so two files run at once
          // (the suite took 40 % less time that way on the 2-core CI machine, every file green). The
          // embedded database stays one file at a time: each file's PGlite computes on its test's
          // own thread, and with two of them the timing-bound tests (graceful stop, log-in slow-down)
          // ran out of time on a busy machine.
          // Two, not one per core: each file starts servers with pools of their own, and
          // PostgreSQL's default of 100 connections is the limit on a larger machine.
          fileParallelism: Boolean(process.env.DATABASE_URL),
          maxWorkers: 2,
          // A worker count of its own needs a group of its own: the integration files run after the
          // unit and web tests, not beside them.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
