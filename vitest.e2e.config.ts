import { defineConfig } from 'vitest/config';

// Browser tests: the built app and the embedded backend on free ports, driven in the
// machine's Chromium. One file at a time: a browser per file is plenty for two cores.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/support/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
