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
          fileParallelism: false,
        },
      },
    ],
  },
});
