import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * The figures a manager checks first, on every screen that shows them, against what the
 * server's rows add up to (computed here in SQL, never by the app's code).
 */
describe('figures a manager can trust', () => {
  let e2e: E2E;
  let page: Page;
  const server = async <T extends Record<string, unknown>,>(sql: string, params: unknown[] = []) => (await e2e.stack.database.query<T>(sql, params)).rows;
  const tile = (name: string) => page.getByRole('article', { name, exact: true });

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('manager@example.com', { width: 1600, height: 1000 }));
  });
  afterAll(() => e2e?.close());

  it("counts a month's work days once, and shows the same count on every screen", async () => {
    // Last month from the server: its days Monday to Saturday that are not one of the store's
    // holidays (the demo's pattern), and the sum of its stored week parts.
    const [month] = await server<{ month: string; calendar: number; parts: number; complete: number }>(
      `with m as (select date_trunc('month', current_date - interval '1 month')::date as first)
       select to_char(m.first, 'YYYY-MM') as month,
         (select count(*)::int from generate_series(m.first, (m.first + interval '1 month - 1 day')::date, interval '1 day') d
           where extract(isodow from d) <> 7
             and d::date not in (select calendar_date from store_calendar_days where store_id = $1 and is_work_day = false)) as calendar,
         (select sum(work_days)::int from weekly_store_performance where store_id = $1 and week_start_date >= m.first and week_start_date < m.first + interval '1 month') as parts,
         (select sum(days_complete)::int from weekly_store_performance where store_id = $1 and week_start_date >= m.first and week_start_date < m.first + interval '1 month') as complete
       from m`,
      [demo.storeA],
    );
    if (!month) throw new Error('no month');
    expect(month.parts).toBe(month.calendar);

    await page.goto(`${e2e.appUrl}/daily?month=${month.month}`);
    await expect.poll(() => tile('Month Complete').textContent(), { timeout: 20_000 }).toContain(`${month.calendar} work days`);
    expect(await tile('Month Complete').textContent()).toContain(`${month.complete} days`);

    await page.goto(`${e2e.appUrl}/service-overview?month=${month.month}`);
    const overview = page.getByRole('definition');
    await expect.poll(() => overview.allTextContents(), { timeout: 10_000 }).toEqual(expect.arrayContaining([String(month.calendar), String(month.complete)]));

    await page.goto(`${e2e.appUrl}/settings?month=${month.month}`);
    await expect.poll(() => page.getByLabel('Work Days in Month').textContent(), { timeout: 10_000 }).toBe(String(month.calendar));

    await page.goto(`${e2e.appUrl}/weekly?month=${month.month}`);
    const workDays = page.getByLabel(/^Work Days Week \d$/);
    await expect.poll(async () => (await workDays.evaluateAll((inputs) => inputs.map((i) => Number((i as HTMLInputElement).value || (i as HTMLInputElement).placeholder)))).reduce((a, b) => a + b, 0), { timeout: 10_000 }).toBe(month.calendar);
  });

  it("fills an empty month's work days from the work pattern, and follows a holiday set in Settings", async () => {
    // March 2031: nothing stored. 31 days, Sundays 2, 9, 16, 23 and 30: 26 work days.
    await page.goto(`${e2e.appUrl}/daily?month=2031-03`);
    await expect.poll(() => tile('Month Complete').textContent(), { timeout: 10_000 }).toContain('26 work days');
    await page.goto(`${e2e.appUrl}/settings?month=2031-03`);
    await page.getByRole('tab', { name: 'Work Pattern' }).click();
    await page.getByRole('table', { name: 'Holidays and extra work days 2031' }).waitFor();
    await page.getByLabel('Date').fill('2031-03-17');
    await page.getByLabel('Note').fill('Stocktake');
    await page.getByRole('button', { name: 'Closed on this day' }).click();
    await page.getByRole('cell', { name: 'Stocktake' }).waitFor();
    await page.goto(`${e2e.appUrl}/daily?month=2031-03`);
    await expect.poll(() => tile('Month Complete').textContent(), { timeout: 10_000 }).toContain('25 work days');
    await expect
      .poll(() => server(`select is_work_day, note from store_calendar_days where store_id = $1 and calendar_date = '2031-03-17'`, [demo.storeA]), { timeout: 15_000 })
      .toEqual([{ is_work_day: false, note: 'Stocktake' }]);
  });

  it('keeps a week part inside its month: a boundary week has its own work days in each month', async () => {
    // 1 April 2031 is a Tuesday: the grid's first week runs from Sunday 30 March, its April part from the 1st.
    await page.goto(`${e2e.appUrl}/daily?month=2031-04`);
    const workDays = page.getByLabel('Work Days Week 1');
    expect(await workDays.getAttribute('placeholder')).toBe('5'); // Tue 1 to Sat 5 April
    await workDays.fill('6');
    await page.getByLabel('Days Complete Week 1').click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Work Days Week 1: enter a whole number from 0 to 5.');
    await workDays.fill('3');
    await page.getByLabel('Days Complete Week 1').click();
    await expect
      .poll(() => server(`select to_char(week_start_date, 'YYYY-MM-DD') as start, to_char(week_end_date, 'YYYY-MM-DD') as end, work_days from weekly_store_performance where store_id = $1 and week_start_date between '2031-03-30' and '2031-04-01'`, [demo.storeA]), { timeout: 15_000 })
      .toEqual([{ start: '2031-04-01', end: '2031-04-05', work_days: 3 }]);
    // March keeps its own part of that week: Sunday 30 and Monday 31 (one work day, Monday).
    await page.goto(`${e2e.appUrl}/daily?month=2031-03`);
    expect(await page.getByLabel('Work Days Week 6').getAttribute('placeholder')).toBe('1');
  });

  it('computes CP Hours Per RO from the CP repair orders, and the Total ELR target from the category mix', async () => {
    const [month] = await server<{ month: string; cp_ros: string; cp: string; w: string; i: string; cp_t: string; w_t: string; i_t: string }>(
      `with m as (select date_trunc('month', current_date - interval '1 month')::date as first)
       select to_char(m.first, 'YYYY-MM') as month,
         (select return_on_sales::text from monthly_labor_gross_inputs where store_id = $1 and labor_type = 'customerPay' and month_year = m.first) as cp_ros,
         (select sum(value)::text from daily_inputs where store_id = $1 and row_identifier = 'CP' and metric_type = 'hours' and entry_date >= m.first and entry_date < m.first + interval '1 month') as cp,
         (select sum(value)::text from daily_inputs where store_id = $1 and row_identifier = 'W' and metric_type = 'hours' and entry_date >= m.first and entry_date < m.first + interval '1 month') as w,
         (select sum(value)::text from daily_inputs where store_id = $1 and row_identifier = 'I' and metric_type = 'hours' and entry_date >= m.first and entry_date < m.first + interval '1 month') as i,
         (select target_value::text from monthly_targets where store_id = $1 and year = extract(year from m.first) and month = extract(month from m.first) and metric_key = 'cpElr') as cp_t,
         (select target_value::text from monthly_targets where store_id = $1 and year = extract(year from m.first) and month = extract(month from m.first) and metric_key = 'warrantyElr') as w_t,
         (select target_value::text from monthly_targets where store_id = $1 and year = extract(year from m.first) and month = extract(month from m.first) and metric_key = 'internalElr') as i_t
       from m`,
      [demo.storeA],
    );
    if (!month) throw new Error('no month');
    await page.goto(`${e2e.appUrl}/?view=all&month=${month.month}`);
    const dashboard = page.getByRole('region', { name: 'KPI Dashboard' });
    const dashboardTile = (name: string) => dashboard.getByRole('article', { name, exact: true });
    const perRo = Number(month.cp) / Number(month.cp_ros);
    await expect.poll(() => dashboardTile('CP Hours Per RO').locator('.headline').textContent(), { timeout: 20_000 }).toBe(twoDecimals.format(perRo));
    const [cp, w, i] = [Number(month.cp), Number(month.w), Number(month.i)];
    const weighted = (Number(month.cp_t) * cp + Number(month.w_t) * w + Number(month.i_t) * i) / (cp + w + i);
    expect(await dashboardTile('Total ELR').textContent()).toContain(`Target: ${money.format(weighted)} (category mix)`);
    // The working is one tap away, with the month's own numbers.
    await dashboardTile('CP Hours Per RO').getByRole('button', { name: 'How CP Hours Per RO is computed' }).focus();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toContain(`/ ${Number(month.cp_ros).toLocaleString('en-US')} = ${twoDecimals.format(perRo)}`);
  });

  it("colours the Work Mix against the store's own target, set in Settings", async () => {
    await page.goto(`${e2e.appUrl}/?view=all`);
    const mix = page.getByRole('region', { name: 'KPI Dashboard' }).getByRole('article', { name: 'Work Mix' });
    await expect.poll(() => mix.textContent(), { timeout: 20_000 }).toContain('Target: CP 40%, W 30%, I 30%');
    // The demo store sells about three quarters customer pay: far from 40 / 30 / 30.
    expect(await mix.getAttribute('class')).toContain('behind');
    await page.goto(`${e2e.appUrl}/settings`);
    await page.getByRole('tab', { name: 'Service Overview Settings' }).click();
    // A target at this month's own mix (shares of the hours on the server, rounded): green.
    const [hours] = await server<{ cp: string; w: string; i: string }>(
      `select sum(value) filter (where row_identifier = 'CP')::text as cp, sum(value) filter (where row_identifier = 'W')::text as w, sum(value) filter (where row_identifier = 'I')::text as i
       from daily_inputs where store_id = $1 and metric_type = 'hours' and entry_date >= date_trunc('month', current_date) and entry_date < date_trunc('month', current_date) + interval '1 month'`,
      [demo.storeA],
    );
    const all = Number(hours?.cp) + Number(hours?.w) + Number(hours?.i);
    const cp = Math.round((Number(hours?.cp) / all) * 100);
    const w = Math.round((Number(hours?.w) / all) * 100);
    await page.getByLabel('CP share of hours target').fill(String(cp));
    await page.getByLabel('Warranty share of hours target').fill(String(w));
    await page.getByLabel('Internal share of hours target').fill(String(95 - cp - w));
    await page.getByRole('button', { name: 'Save Work Mix Target' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe("Nothing was saved: the Work Mix target's shares add up to 95%; they must add up to 100%.");
    await page.getByLabel('Internal share of hours target').fill(String(100 - cp - w));
    await page.getByRole('button', { name: 'Save Work Mix Target' }).click();
    await page.getByText('Work Mix target saved successfully!').waitFor();
    await page.goto(`${e2e.appUrl}/?view=all`);
    await expect.poll(() => mix.textContent(), { timeout: 10_000 }).toContain(`Target: CP ${cp}%, W ${w}%, I ${100 - cp - w}%`);
    expect(await mix.getAttribute('class')).toContain('good');
    await expect
      .poll(() => server(`select mix_target_cp::text as cp, mix_target_w::text as w, mix_target_i::text as i from store_settings where store_id = $1`, [demo.storeA]), { timeout: 15_000 })
      .toEqual([{ cp: `${cp}.00`, w: `${w}.00`, i: `${100 - cp - w}.00` }]);
  });

  it('takes the month-end counts on the Monthly page and shows them on their tiles', async () => {
    await page.goto(`${e2e.appUrl}/monthly?month=2031-05`);
    await page.getByLabel('ROs Over 30 Days').fill('7');
    await page.getByLabel('Shop Supplies').fill('8450.5');
    await page.getByLabel('Due Bills Over 30 Days').click();
    await expect.poll(() => page.locator('.save-status').textContent()).toBe('Saved');
    await page.goto(`${e2e.appUrl}/?view=all&month=2031-05`);
    await expect.poll(() => tile('ROs Over 30 Days').locator('.headline').textContent(), { timeout: 10_000 }).toBe('7');
    expect(await tile('Shop Supplies').locator('.headline').textContent()).toBe('$8,451');
    // The month has no target for them yet.
    expect(await tile('ROs Over 30 Days').getAttribute('class')).toContain('no-target');
    await expect
      .poll(() => server(`select ros_over_30_days, shop_supplies::text as supplies, to_char(as_of_date, 'YYYY-MM') as counted from monthly_operational_inputs where store_id = $1 and year = 2031 and month = 5`, [demo.storeA]), { timeout: 15_000 })
      .toEqual([{ ros_over_30_days: 7, supplies: '8450.50', counted: '2031-05' }]);
  });

  it('shows "-" instead of 0% where no gross is entered, and totals the columns as shown', async () => {
    await page.goto(`${e2e.appUrl}/monthly?month=2031-06`);
    const table = page.getByRole('table', { name: 'Monthly performance' });
    await table.waitFor();
    const percentOf = (label: RegExp) => table.getByRole('row', { name: label }).locator('td').nth(4);
    expect(await percentOf(/WARRANTY/).textContent()).toBe('-');
    await page.getByLabel('Sales SUBLET').fill('1000');
    await page.getByLabel('Gross SUBLET').fill('250');
    await page.getByLabel('Gross UNAPPLIED TIME').fill('-100');
    await page.getByLabel("RO's SUBLET").click();
    await expect.poll(() => percentOf(/SUBLET/).textContent()).toBe('25%');
    const footer = (label: RegExp, cell: number) => table.getByRole('row', { name: label }).locator('td').nth(cell).textContent();
    await expect.poll(() => footer(/TOTAL LABOUR/, 3)).toBe('$150');
    expect(await footer(/TOTAL SALES/, 1)).toBe('$1,000');
  });
});
