import { defineConfig } from 'vitest/config';
import { LongestFirst } from './tests/support/longest-first.ts';

// Unit and integration tests. Integration tests start real databases (PGlite in-process,
// and PostgreSQL when TEST_DATABASE_URL is set), so they get generous timeouts.
//
// Two test processes at a time: the machine this runs on has two cores, and while one
// file waits on the PostgreSQL server the other keeps Node busy. Every file gets its own
// databases (copies of templates built once in global setup), ports and folders, so any
// two can run together; only the files that measure time run alone, after the others, so
// a neighbour's load cannot decide their outcome.
const measuring = [
  // answers within a second while a heavy request runs
  'tests/integration/stack/no-stall.test.ts',
  // known and unknown accounts take as long (timing ratios); the throttle's shape, on a
  // clock of its own, is sign-in-throttle.test.ts, beside the others
  'tests/integration/stack/sign-in.test.ts',
  'tests/integration/stack/one-time-codes.test.ts',
];
// The heap ceilings (realtime-memory.test.ts) run beside the others: the heap is read after
// a full collection in a process of its own, once every join has been answered, so a
// neighbour's load can slow them but not change what they measure.

// Unit files that need modules of their own: they drive module-level state (the months
// kept in memory for the screens, the sync runtime's event sources on the page's globals).
const unitWithModuleState = ['tests/unit/data/live-months.test.ts', 'tests/unit/sync/sync-runtime.test.ts'];

const shared = {
  environment: 'node',
  // Whole-table checks on the demo data take 10-15 s on PGlite on a busy machine, and a
  // neighbouring test process shares the cores with them.
  testTimeout: 90_000,
  hookTimeout: 90_000,
  // Polled conditions get ten seconds, not vitest's one: a busy machine is slow, not wrong.
  expect: { poll: { timeout: 10_000 } },
} as const;

// In CI a failed database or stack test runs once more: there the suites share two cores
// with the browser tests, and a cycle can meet a timeout the product rightly keeps. A real
// fault fails both times; a test that passed only on its second run is named at the end
// of the CI log (scripts/test-summary.ts), to be made steady rather than forgotten.
const retry = process.env.CI ? 1 : 0;

export default defineConfig({
  test: {
    maxWorkers: 2,
    // The longest files first, so neither process is left with a long file at the end.
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          exclude: unitWithModuleState,
          // Pure functions and in-memory stores: threads start faster than processes, and
          // files that share one module graph do not each load the app's modules again.
          pool: 'threads',
          isolate: false,
        },
      },
      {
        test: {
          ...shared,
          name: 'unit-isolated',
          include: unitWithModuleState,
          pool: 'threads',
        },
      },
      {
        test: {
          ...shared,
          // SQL against a migrated database: most of the work is the database's.
          name: 'database',
          retry,
          include: ['tests/integration/db/**/*.test.ts', 'tests/integration/rls/**/*.test.ts'],
          exclude: measuring,
          pool: 'forks',
          // Each test process runs file after file in one module graph: PGlite's
          // WebAssembly is compiled once per process rather than once per file (about two
          // seconds of CPU each), and the template dumps are read once. Every file opens
          // and closes its own databases and servers, and none mocks a module.
          isolate: false,
          globalSetup: ['tests/support/global-setup.ts'],
        },
      },
      {
        test: {
          ...shared,
          // The embedded backend over HTTP and websockets, and devices syncing through it.
          name: 'stack',
          retry,
          include: ['tests/integration/stack/**/*.test.ts', 'tests/integration/sync/**/*.test.ts'],
          exclude: measuring,
          pool: 'forks',
          // As the database suites: one module graph per test process.
          isolate: false,
          globalSetup: ['tests/support/global-setup.ts'],
        },
      },
      {
        test: {
          ...shared,
          name: 'measuring',
          include: measuring,
          pool: 'forks',
          globalSetup: ['tests/support/global-setup.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
