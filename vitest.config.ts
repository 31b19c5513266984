import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two cores: each server test file opens its own database.
    maxWorkers: 2,
    projects: [
      // jsdom renders of the grid and forms take a few seconds on a busy 2-core machine: a time-out is not a verdict.
      { extends: './apps/web/vite.config.ts', test: { name: 'web', root: './apps/web', environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'], setupFiles: ['./src/test-support/testing-library-setup.ts'], testTimeout: 30_000 } },
      { test: { name: 'entities', root: './packages/entities', environment: 'node', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: './apps/server',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
