/**
 * The field-limits migration on a database that already holds data, as in production:
 * the migrations before it, the demo data, and a few figures typed before limits existed
 * (NaN, negative hours, an absurd sales month). The migration applies, changes no stored
 * figure, validates every rule the data allows, and still refuses new bad writes.
 */
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, migrationsDir } from '../../../supabase/local/db/migrate.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

const fieldLimitsVersion = '20260301000000';

/** A folder holding only the migrations that came before the field limits. */
async function migrationsBeforeFieldLimits(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  for (const file of await readdir(migrationsDir)) {
    if (file.endsWith('.sql') && file < fieldLimitsVersion) await cp(path.join(migrationsDir, file), path.join(dir, file));
  }
  return dir;
}

const unvalidated = (db: TestDatabase) =>
  db
    .query<{ name: string }>(
      `select conname::text as name from pg_constraint
       where connamespace = 'public'::regnamespace and contype = 'c' and not convalidated order by 1`,
    )
    .then((result) => result.rows.map((row) => row.name));

for (const engine of engines) {
  describe(`the field-limits migration on a database with data, on ${engine}`, () => {
    let clean: TestDatabase;
    let dirty: TestDatabase;
    let before: string;

    beforeAll(async () => {
      before = await migrationsBeforeFieldLimits();
      [clean, dirty] = await Promise.all([createTestDatabase(engine, { migrate: false }), createTestDatabase(engine, { migrate: false })]);
      for (const db of [clean, dirty]) {
        await applyMigrations(db, before);
        // The demo data of that time: today's seed needs tables that came later.
        await db.exec(await readFile(path.join(import.meta.dirname, 'fixtures', 'demo-data-2026-03.sql'), 'utf8'));
      }
      // Typed before the limits: hours of NaN and -5, and a month of $2 billion in sales.
      await dirty.query(
        `update public.daily_inputs set value = case row_identifier when 'CP' then 'NaN'::numeric else -5 end
         where store_id = $1 and metric_type = 'hours' and entry_date = (select min(entry_date) from public.daily_inputs)`,
        [demo.storeA],
      );
      await dirty.query(`update public.yearly_financial_inputs set sales = 2000000000 where store_id = $1 and month = 1`, [demo.storeA]);
    });
    afterAll(async () => {
      await Promise.all([clean?.dispose(), dirty?.dispose()]);
      if (before) await rm(before, { recursive: true, force: true });
    });

    it('validates every rule on the demo data', async () => {
      expect(await applyMigrations(clean)).toContain(`${fieldLimitsVersion}_field_limits.sql`);
      expect(await unvalidated(clean)).toEqual([]);
    });

    it('leaves figures typed before the limits as they were, and keeps the rules they break for new writes only', async () => {
      const figures = `select
        (select array_agg(value::text order by row_identifier) from public.daily_inputs
          where store_id = $1 and metric_type = 'hours' and entry_date = (select min(entry_date) from public.daily_inputs)) as hours,
        (select sales::text from public.yearly_financial_inputs where store_id = $1 and year = (select min(year) from public.yearly_financial_inputs) and month = 1) as sales,
        (select count(*)::int from public.daily_inputs) as daily_rows`;
      const stored = (await dirty.query(figures, [demo.storeA])).rows[0];
      expect(stored).toMatchObject({ hours: ['NaN', '-5.00', '-5.00'], sales: '2000000000.00' });

      expect(await applyMigrations(dirty)).toContain(`${fieldLimitsVersion}_field_limits.sql`);
      expect((await dirty.query(figures, [demo.storeA])).rows[0]).toEqual(stored);
      expect(await unvalidated(dirty)).toEqual(['daily_inputs_value_in_range', 'yearly_financial_inputs_sales_in_range']);

      // Still enforced for every new or changed row.
      await expect(
        dirty.query(`update public.daily_inputs set value = 'NaN' where store_id = $1 and metric_type = 'sales' and value is not null and entry_date = (select max(entry_date) from public.daily_inputs)`, [demo.storeA]),
      ).rejects.toMatchObject({ code: '23514', message: expect.stringContaining('daily_inputs_value_in_range') });
      // Correcting the old figures lets the rule be validated, as docs/security.md tells an operator.
      await dirty.query(`update public.daily_inputs set value = null where value = 'NaN' or value < 0`);
      await dirty.query(`update public.yearly_financial_inputs set sales = 2000000 where sales > 10000000`);
      await dirty.query('alter table public.daily_inputs validate constraint daily_inputs_value_in_range');
      await dirty.query('alter table public.yearly_financial_inputs validate constraint yearly_financial_inputs_sales_in_range');
      expect(await unvalidated(dirty)).toEqual([]);
    });
  });
}
