import { defineConfig } from 'vitest/config';

// Unit and integration tests. Integration tests start real databases (PGlite in-process,
// and PostgreSQL when TEST_DATABASE_URL is set), so they get generous timeouts.
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
