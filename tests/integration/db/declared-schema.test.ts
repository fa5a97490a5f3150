/**
 * The declared schema (supabase/schemas, in the order supabase/config.toml gives) and the
 * migrations (supabase/migrations) build the same database, on each engine: tables,
 * columns with their types, defaults and nullability, constraints, indexes, policies,
 * grants, functions with their bodies and settings, triggers, views, comments, the
 * realtime publication and the synced-table registry. A difference fails with the list of
 * what differs (docs/schema.md says which side to change). The comparison itself is shown
 * to see a changed function body, policy, column and comment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../../scripts/db/catalog.ts';
import { readCatalog } from '../../../scripts/db/catalog.ts';
import { compareCatalogs, describeDifferences } from '../../../scripts/db/compare.ts';
import { applyDeclaredSchema } from '../../../scripts/db/declared-schema.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

/** Rolled back: what the catalog reads after `sql`, without keeping it. */
async function catalogAfter(db: TestDatabase, sql: string): Promise<Catalog> {
  let catalog: Catalog | undefined;
  await db
    .transaction(async (tx) => {
      await tx.exec(sql);
      catalog = await readCatalog(tx);
      throw new Error('roll back');
    })
    .catch((error: unknown) => {
      if (!(error instanceof Error) || error.message !== 'roll back') throw error;
    });
  if (!catalog) throw new Error('no catalog read');
  return catalog;
}

for (const engine of engines) {
  describe(`the declared schema on ${engine}`, () => {
    let migrated: TestDatabase;
    let declared: TestDatabase;
    let fromMigrations: Catalog;

    beforeAll(async () => {
      [migrated, declared] = await Promise.all([createTestDatabase(engine, { seed: false }), createTestDatabase(engine, { migrate: false })]);
      await applyDeclaredSchema(declared);
      fromMigrations = await readCatalog(migrated);
    });
    afterAll(async () => {
      await Promise.all([migrated?.dispose(), declared?.dispose()]);
    });

    it('builds what the migrations build', async () => {
      const differences = compareCatalogs(fromMigrations, await readCatalog(declared));
      expect(differences, `supabase/schemas and supabase/migrations differ:\n${describeDifferences(differences)}`).toEqual([]);
    });

    it('is compared in full: the tables, functions, policies and registry rows are all there', () => {
      expect(Object.values(fromMigrations.relations).filter((r) => r.name.startsWith('public.') && r.kind === 'table').length).toBeGreaterThan(20);
      expect(fromMigrations.functions['public.push_changes(p_table text, p_rows jsonb)']?.definition).toContain('v_row_by_row');
      expect(fromMigrations.policies["public.daily_inputs.Store members can read their store's rows"]?.command).toBe('select');
      expect(fromMigrations.relations['public.daily_inputs']?.publications).toEqual(['supabase_realtime']);
      expect(fromMigrations.data['private.synced_tables']?.length).toBeGreaterThan(20);
    });

    it('tells a changed function body, policy, column, comment and registry row apart, naming each', async () => {
      const planted = await catalogAfter(
        declared,
        `create or replace function private.history_ignores(p_field text) returns boolean
           language sql immutable set search_path = '' as $$ select p_field in ('id') $$;
         drop policy "Admins delete stores" on public.stores;
         alter table public.yearly_financial_inputs add column note text;
         comment on column public.yearly_financial_inputs.ros is 'planted';
         update private.synced_tables set key_columns = array['id'] where name = 'daily_inputs';`,
      );
      const differences = compareCatalogs(fromMigrations, planted);
      const text = describeDifferences(differences);
      expect(differences.map((d) => `${d.kind} ${d.name} ${d.change}${d.property ? ` ${d.property}` : ''}`)).toEqual([
        'column public.yearly_financial_inputs.note only in schemas',
        'column public.yearly_financial_inputs.ros differs comment',
        'policy public.stores.Admins delete stores only in migrations',
        'function private.history_ignores(p_field text) differs definition',
        'rows of private.synced_tables differs rows',
      ]);
      expect(text).toContain("schemas:    AS $function$ select p_field in ('id') $function$");
    });
  });
}
