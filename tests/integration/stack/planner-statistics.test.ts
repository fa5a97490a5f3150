import { afterAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../../supabase/local/server.ts';
import { startLocalStack } from '../../../supabase/local/server.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase } from '../../support/test-databases.ts';

/**
 * PGlite has no autovacuum, so the embedded backend analyzes every table whose statistics
 * are missing or stale before it answers its first request: the planned-cost guard and
 * the planner need them from the start. (The test templates are analyzed once when they
 * are built, so only a backend started on an empty folder meets such tables elsewhere,
 * and nothing else checks that they were analyzed.)
 */
describe('the planner statistics of a backend on PGlite', () => {
  let db: TestDatabase | undefined;
  let stack: LocalStack | undefined;
  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  const reltuples = async (table: string) =>
    (await db!.query<{ reltuples: number }>('select reltuples from pg_class where oid = $1::regclass', [table])).rows[0]?.reltuples;

  it('are taken at start for tables never analyzed and tables grown since, before the first request', async () => {
    db = await createTestDatabase('pglite');
    await db.exec(`
      create table public.never_analyzed as select n from generate_series(1, 20000) n;
      create table public.grown_since as select n from generate_series(1, 100) n;
      analyze public.grown_since;
      insert into public.grown_since select n from generate_series(101, 50000) n;
    `);
    expect(await reltuples('public.never_analyzed')).toBeLessThan(0);
    expect(await reltuples('public.grown_since')).toBe(100);

    stack = await startLocalStack({ db, port: 0 });

    expect(await reltuples('public.never_analyzed')).toBe(20000);
    expect(await reltuples('public.grown_since')).toBe(50000);
  });
});
