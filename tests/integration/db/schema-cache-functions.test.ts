import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSchemaCache } from '../../../supabase/local/rest/schema-cache.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

/**
 * The functions the REST service's schema cache keeps: every function of the exposed
 * schemas (for /rpc), and from any other schema only those taking exactly one row of a
 * table or view (computed fields and relationships). The catalog query picks them before
 * it describes their parameters, so these cases pin what that choice must keep and drop.
 */
describe.each(engines)('the schema cache functions on %s', (engine) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase(engine, { seed: false });
    await db.exec(`
      create schema reports;
      create function reports.store_label(s public.stores) returns text language sql stable as $$ select s.name $$;
      create function reports.store_label_with(s public.stores, prefix text) returns text language sql stable as $$ select prefix || s.name $$;
      create function reports.double_it(n integer) returns integer language sql immutable as $$ select n * 2 $$;
      create function public.cache_probe(amount integer, note text default null) returns integer language sql immutable as $$ select amount $$;
      create function public.cache_probe_rows(s public.stores) returns setof public.stores language sql stable as $$ select s $$;
    `);
  });
  afterAll(() => db?.dispose());

  it("keeps an exposed schema's functions with their parameters, whatever they take", async () => {
    const cache = await loadSchemaCache(db, ['public']);
    const [probe] = cache.bySchema.get('public')?.functions.get('cache_probe') ?? [];
    expect(probe?.params.map((param) => [param.name, param.type, param.required])).toEqual([
      ['amount', 'integer', true],
      ['note', 'text', false],
    ]);
    expect(cache.bySchema.get('public')?.functions.has('cache_probe_rows')).toBe(true);
  });

  it('keeps a function of another schema taking one row of a table, and no other function of that schema', async () => {
    const cache = await loadSchemaCache(db, ['public']);
    const ofStores = cache.rowFunctions.get('public.stores');
    expect(ofStores?.get('store_label')?.map((fn) => fn.schema)).toEqual(['reports']);
    expect(ofStores?.get('cache_probe_rows')?.map((fn) => fn.schema)).toEqual(['public']);
    expect(ofStores?.has('store_label_with')).toBe(false);
    const everyRowFunction = [...cache.rowFunctions.values()].flatMap((byName) => [...byName.keys()]);
    expect(everyRowFunction).not.toContain('double_it');
    expect(cache.bySchema.has('reports')).toBe(false);
  });

  it("keeps the other schema's functions when that schema is exposed too", async () => {
    const cache = await loadSchemaCache(db, ['public', 'reports']);
    const reports = cache.bySchema.get('reports')?.functions;
    expect([...(reports?.keys() ?? [])].sort()).toEqual(['double_it', 'store_label', 'store_label_with']);
  });
});
