import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../support/as-role.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

const manager: Actor = { role: 'authenticated', userId: demo.managerId };

const insertDaily = `insert into public.daily_inputs
  (store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value)
  values ($1, $2, $3, $4, $5, $6, $7, $8)`;
// 2031-03-04 is a Tuesday (ISO day 2).
const goodDaily = [demo.storeA, '2031-03-04', 2031, 3, 2, 'CP', 'hours', '12.5'];

for (const engine of engines) {
  describe(`bad input is refused with a clear error on ${engine}`, () => {
    let db: TestDatabase;
    let fingerprint: () => Promise<unknown>;

    beforeAll(async () => {
      db = await createTestDatabase(engine);
      // Everything a refused statement could have touched, summed up.
      fingerprint = async () =>
        (
          await db.query(`select
            (select count(*)::int from public.daily_inputs) as daily,
            (select coalesce(sum(value), 0)::text from public.daily_inputs) as daily_sum,
            (select count(*)::int from public.monthly_targets) as targets,
            (select count(*)::int from public.weekly_store_performance) as weeks`)
        ).rows[0];
    });
    afterAll(() => db?.dispose());

    const cases: Array<[string, string, unknown[], string, RegExp]> = [
      ['a non-numeric value', insertDaily, goodDaily.with(7, 'lots'), '22P02', /invalid input syntax for type numeric/],
      ['month 13', insertDaily, goodDaily.with(3, 13), '23514', /month_in_range|daily_inputs_calendar_matches_date/],
      ['an unknown row identifier', insertDaily, goodDaily.with(5, 'X'), '23514', /row_identifier_check/],
      ['an unknown metric type', insertDaily, goodDaily.with(6, 'miles'), '23514', /metric_type_check/],
      ['a day of week that does not match the date', insertDaily, goodDaily.with(4, 5), '23514', /calendar_matches_date/],
      [
        'a target month out of range',
        `insert into public.monthly_targets (store_id, year, month, metric_key, target_value) values ($1, 2031, 0, 'cpElr', 1)`,
        [demo.storeA],
        '23514',
        /monthly_targets_month_in_range/,
      ],
      [
        'more days complete than a week has',
        `insert into public.weekly_store_performance (store_id, year, week_start_date, week_end_date, days_complete)
         values ($1, 2031, '2031-01-05', '2031-01-11', 8)`,
        [demo.storeA],
        '23514',
        /weekly_store_performance_days_complete_in_range/,
      ],
      [
        'a week that starts neither on Sunday nor on the 1st',
        `insert into public.weekly_store_performance (store_id, year, week_start_date, week_end_date)
         values ($1, 2031, '2031-01-06', '2031-01-11')`,
        [demo.storeA],
        '23514',
        /weekly_store_performance_week_starts_on_sunday_or_first/,
      ],
    ];

    it.each(cases)('refuses %s and changes nothing', async (_name, sql, params, code, message) => {
      const before = await fingerprint();
      const outcome = await attempt(db, manager, sql, params);
      expect(outcome).toMatchObject({ error: code });
      expect('message' in outcome && outcome.message).toMatch(message);
      expect(await fingerprint()).toEqual(before);
    });

    it('refuses a duplicate natural key on plain insert, naming the key', async () => {
      await db.query(insertDaily, goodDaily);
      const before = await fingerprint();
      const outcome = await attempt(db, manager, insertDaily, goodDaily.with(7, '99'));
      expect(outcome).toMatchObject({ error: '23505' });
      expect('message' in outcome && outcome.message).toMatch(/daily_inputs_natural_key/);
      expect(await fingerprint()).toEqual(before);
    });

    it('refuses a whole multi-row insert when one row is bad, keeping the good ones out too', async () => {
      const before = await fingerprint();
      const outcome = await attempt(
        db,
        manager,
        `insert into public.daily_inputs
           (store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value)
         values ($1, '2031-03-05', 2031, 3, 3, 'W', 'hours', 4),
                ($1, '2031-03-05', 2031, 3, 3, 'I', 'hours', 5),
                ($1, '2031-03-05', 2031, 3, 3, 'Q', 'hours', 6)`,
        [demo.storeA],
      );
      expect(outcome).toMatchObject({ error: '23514' });
      expect(await fingerprint()).toEqual(before);
    });
  });
}
