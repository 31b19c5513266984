import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: './e2e',
    include: ['**/*.e2e.ts'],
    environment: 'node',
    // The migrated, seeded PGlite image each file's server copies (the browser tests run on PGlite only).
    globalSetup: ['./global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One browser and one server at a time: two cores.
    fileParallelism: false,
  },
});
