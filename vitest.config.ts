import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { extends: './apps/web/vite.config.ts', test: { name: 'web', root: './apps/web', environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] } },
      { test: { name: 'entities', root: './packages/entities', environment: 'node', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: './apps/server',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // PGlite instances are memory-hungry and each file opens its own; two cores, two workers.
          maxWorkers: 2,
        },
      },
    ],
  },
});
