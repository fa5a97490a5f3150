import { defineConfig } from 'vitest/config';
import { LongestFirst } from './tests/support/longest-first.ts';

// Browser tests: the built app and the embedded backend on free ports, driven in the
// machine's Chromium. Two projects in one run: the journeys (a person using the screens)
// and the drills (the backend killed, replies lost, tokens expiring, a new version
// arriving: each waits on purpose for much of its time). Two files at a time, the longest
// first, from either project: a drill's waiting leaves the core to a journey's browser.
// Every file has its own backend, app server, browser profiles and months, so any two can
// run together.
const shared = {
  environment: 'node',
  testTimeout: 90_000,
  hookTimeout: 120_000,
  pool: 'forks',
  // A test process runs file after file without loading Playwright and the harness
  // again for each: every file builds its own world in beforeAll and closes it after.
  isolate: false,
  globalSetup: 'tests/e2e/support/global-setup.ts',
  // A screen that is right a moment later passes; on a busy machine a moment can be
  // several seconds, and vitest's default of one second then fails a correct app.
  expect: { poll: { timeout: 10_000 } },
  // In CI a failed test runs once more, as for the stack suites (vitest.config.ts): a real
  // fault fails both times, and one that passed only on its second run is named at the
  // end of the CI log.
  retry: process.env.CI ? 1 : 0,
} as const;

export default defineConfig({
  test: {
    maxWorkers: 2,
    fileParallelism: true,
    sequence: { sequencer: LongestFirst },
    projects: [
      { test: { ...shared, name: 'journeys', include: ['tests/e2e/*.test.ts'] } },
      { test: { ...shared, name: 'drills', include: ['tests/e2e/drills/**/*.test.ts'] } },
    ],
  },
});
