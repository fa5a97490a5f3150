import { defineConfig } from 'vitest/config';
import { LongestFirst } from './tests/support/longest-first.ts';

// Browser tests: the built app and the embedded backend on free ports, driven in the
// machine's Chromium. Two files at a time, the longest first: much of a browser test is
// waiting (for a sync, a token to expire, the network to come back), so a second file's
// browser and backend use the core the first leaves idle. Every file has its own backend,
// app server, browser profiles and months, so any two can run together.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/support/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A test process runs file after file without loading Playwright and the harness
    // again for each: every file builds its own world in beforeAll and closes it after.
    isolate: false,
    maxWorkers: 2,
    fileParallelism: true,
    sequence: { sequencer: LongestFirst },
    // A screen that is right a moment later passes; on a busy machine a moment can be
    // several seconds, and vitest's default of one second then fails a correct app.
    expect: { poll: { timeout: 10_000 } },
  },
});
