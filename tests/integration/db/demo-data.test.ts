/**
 * The demo store must look like a store: advisors who work differently (their own labour
 * rate, hours per RO, surveys and days worked), gross margins that move month to month,
 * and still one model in which the advisors add up to the store's own figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

/** The least spread between the best and worst advisor in every ended month. */
const minimum = { elr: 8, cpHoursPerRo: 0.25, surveysPerHundredRos: 1.5, daysWorkedOverYear: 4 } as const;

for (const engine of engines) {
  describe(`the demo data (${engine})`, () => {
    let db: TestDatabase;
    const rows = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows;
    beforeAll(async () => {
      db = await createTestDatabase(engine, { seed: true });
    }, 120_000);
    afterAll(() => db?.dispose());

    /** Each advisor's month: labour rate, CP hours per RO and surveys per 100 ROs, for the months already ended. */
    const advisorMonths = () =>
      rows<{ month: string; name: string; elr: string; cp_hours_per_ro: string; surveys: string; days: number }>(
        `select to_char(t.entry_date, 'YYYY-MM') as month, a.advisor_name as name,
                (t.labour_sales / t.total_hours)::text as elr, (t.cp_hours / t.cp_ros)::text as cp_hours_per_ro,
                (s.surveys_count * 100.0 / t.total_ros)::text as surveys, p.days_worked::int as days
           from front_end_team_advisor_totals t
           join front_end_team_advisors a on a.id = t.advisor_id
           join advisor_survey_data s on s.advisor_id = t.advisor_id and make_date(s.year, s.month, 1) = t.entry_date
           join front_end_team_daily_performance p on p.advisor_id = t.advisor_id and p.entry_date = t.entry_date
          where t.store_id = $1 and t.entry_date < date_trunc('month', current_date)
          order by 1, 2`,
        [demo.storeA],
      );

    it(`gives each advisor a rate and hours per RO of their own: at least $${minimum.elr} and ${minimum.cpHoursPerRo} h apart every month`, async () => {
      const byMonth = new Map<string, Array<{ elr: string; cp_hours_per_ro: string; surveys: string }>>();
      for (const r of await advisorMonths()) byMonth.set(r.month, [...(byMonth.get(r.month) ?? []), r]);
      expect(byMonth.size).toBeGreaterThanOrEqual(12);
      for (const [month, advisors] of byMonth) {
        expect(advisors, month).toHaveLength(3);
        const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
        expect(spread(advisors.map((a) => Number(a.elr))), `ELR ${month}`).toBeGreaterThanOrEqual(minimum.elr);
        expect(spread(advisors.map((a) => Number(a.cp_hours_per_ro))), `CP hours per RO ${month}`).toBeGreaterThanOrEqual(minimum.cpHoursPerRo);
        expect(spread(advisors.map((a) => Number(a.surveys))), `surveys per 100 ROs ${month}`).toBeGreaterThanOrEqual(minimum.surveysPerHundredRos);
      }
    });

    it(`has advisors who take different days off: at least ${minimum.daysWorkedOverYear} days apart over the last twelve months`, async () => {
      const days = new Map<string, number>();
      const recent = (await advisorMonths()).slice(-36);
      for (const r of recent) days.set(r.name, (days.get(r.name) ?? 0) + r.days);
      expect(Math.max(...days.values()) - Math.min(...days.values())).toBeGreaterThanOrEqual(minimum.daysWorkedOverYear);
    });

    it('moves the gross margins month to month, not a whole percent of sales', async () => {
      const margins = await rows<{ month: string; type: string; pct: string }>(
        `select to_char(g.month_year, 'YYYY-MM') as month, g.labor_type as type, (g.gross_value * 100 / d.sales)::text as pct
           from monthly_labor_gross_inputs g
           join (select date_trunc('month', entry_date)::date as month_year, row_identifier, sum(value) as sales
                   from daily_inputs where store_id = $1 and metric_type = 'sales' group by 1, 2) d
             on d.month_year = g.month_year and d.row_identifier = case g.labor_type when 'customerPay' then 'CP' when 'warranty' then 'W' else 'I' end
          where g.store_id = $1 and g.labor_type in ('customerPay', 'warranty', 'internal')`,
        [demo.storeA],
      );
      expect(margins.length).toBeGreaterThanOrEqual(36);
      // A margin on a whole percent (within 0.01 point) happens by chance in about one month in fifty; allow one in ten.
      const whole = margins.filter((m) => Math.abs(Number(m.pct) - Math.round(Number(m.pct))) < 0.01);
      expect(whole.length).toBeLessThanOrEqual(Math.ceil(margins.length / 10));
      const sublet = await rows<{ pct: string }>(
        `select (gross_value * 100 / direct_sales_value)::text as pct from monthly_labor_gross_inputs where store_id = $1 and labor_type = 'sublet'`,
        [demo.storeA],
      );
      expect(new Set(sublet.map((s) => Number(s.pct).toFixed(1))).size).toBeGreaterThan(sublet.length / 2);
      // The yearly GP% of the months moves by more than a point between its lowest and highest month.
      const gp = (await rows<{ pct: string }>(`select (gp_net * 100 / sales)::text as pct from yearly_financial_inputs where store_id = $1`, [demo.storeA])).map((r) => Number(r.pct));
      expect(Math.max(...gp) - Math.min(...gp)).toBeGreaterThan(1);
    });

    it("adds the advisors up to the store's repair orders, hours and sales, month by month", async () => {
      const mismatches = await rows<Record<string, unknown>>(
        `with team as (
           select entry_date as month_year, sum(total_ros) as ros, sum(cp_ros) as cp_ros, sum(total_hours) as hours,
                  sum(cp_hours) as cp_hours, sum(labour_sales) as sales, sum(cp_labour) as cp_sales,
                  sum(warranty_ros) as w_ros, sum(internal_ros) as i_ros
             from front_end_team_advisor_totals where store_id = $1 group by 1),
         store_ros as (
           select month_year, sum(return_on_sales) filter (where labor_type in ('customerPay', 'warranty', 'internal')) as ros,
                  sum(return_on_sales) filter (where labor_type = 'customerPay') as cp_ros,
                  sum(return_on_sales) filter (where labor_type = 'warranty') as w_ros,
                  sum(return_on_sales) filter (where labor_type = 'internal') as i_ros
             from monthly_labor_gross_inputs where store_id = $1 group by 1),
         store_days as (
           select date_trunc('month', entry_date)::date as month_year,
                  sum(value) filter (where metric_type = 'hours') as hours, sum(value) filter (where metric_type = 'sales') as sales,
                  sum(value) filter (where metric_type = 'hours' and row_identifier = 'CP') as cp_hours,
                  sum(value) filter (where metric_type = 'sales' and row_identifier = 'CP') as cp_sales
             from daily_inputs where store_id = $1 group by 1)
         select t.month_year::text, t.ros, r.ros as store_ros, t.hours, d.hours as store_hours, t.sales, d.sales as store_sales
           from team t join store_ros r using (month_year) join store_days d using (month_year)
          where t.ros <> r.ros or t.cp_ros <> r.cp_ros or t.w_ros <> r.w_ros or t.i_ros <> r.i_ros
             or t.hours <> d.hours or t.cp_hours <> d.cp_hours or t.sales <> d.sales or t.cp_sales <> d.cp_sales`,
        [demo.storeA],
      );
      expect(mismatches).toEqual([]);
      const [months] = await rows<{ n: number }>(`select count(distinct entry_date)::int as n from front_end_team_advisor_totals where store_id = $1`, [demo.storeA]);
      expect(months?.n).toBeGreaterThanOrEqual(12);
    });
  });
}
