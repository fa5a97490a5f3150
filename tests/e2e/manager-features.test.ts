import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { SyncBarModel } from './support/pages.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** Pace to goal, last year beside this, the working of a table figure, and goal alerts. */
describe("what a service manager needs beyond the spec's screens", () => {
  let e2e: E2E;
  let page: Page;
  const paceRow = (name: string) => page.getByRole('table', { name: 'Pace to goal' }).getByRole('row', { name: new RegExp(`^${name}`) });

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('manager@example.com', { width: 1920, height: 1080 }));
    await new SyncBarModel(page).waitForSynced();
  });
  afterAll(() => e2e?.close());

  async function enter(label: string, value: string) {
    await page.getByLabel(label).fill(value);
    await page.getByLabel(label).press('Tab');
  }

  it('says what each remaining work day needs, and whether the month is ahead or behind', async () => {
    // July 2031: 1 July is a Tuesday; Monday to Saturday gives 5 + 6 + 6 + 6 + 4 = 27 work days.
    await page.goto(`${e2e.appUrl}/daily?month=2031-07`);
    await enter('Days Complete Week 1', '5');
    await enter('CP Hours 2031-07-01', '100');
    await enter('CP Sales 2031-07-01', '18000');
    // Hours: 100 h a day over 27 days is 2,700 h; 2,600 left over 22 days is 118.18 a day.
    // By now (5 days) 500 h were due: 400 h behind, 20% of the way: red.
    await expect.poll(() => paceRow('Hours').locator('td').first().textContent()).toBe('118.2 h a day');
    expect(await paceRow('Hours').textContent()).toContain('Behind pace by 400.0 h');
    expect(await paceRow('Hours').getAttribute('class')).toContain('behind');
    // Sales: $17,500 × 27 = $472,500; $454,500 left over 22 days is $20,659 a day.
    await expect.poll(() => paceRow('Sales').locator('td').first().textContent()).toBe('$20,659 a day');
    // CP ELR: $180 an hour on target; 20 h a day for 22 days more is 440 h; (180 × 540 − 18,000) / 440 = $180.
    expect(await paceRow('CP ELR').locator('td').first().textContent()).toBe('$180 an hour');
    expect(await paceRow('CP ELR').textContent()).toContain('Ahead of pace');
    await page.goto(`${e2e.appUrl}/monthly?month=2031-07`);
    await expect.poll(() => paceRow('Hours').locator('td').first().textContent()).toBe('118.2 h a day');
  });

  it('alerts once per figure and day when an entry moves it below amber or red', async () => {
    await page.goto(`${e2e.appUrl}/daily?month=2031-07`);
    await page.getByLabel('CP Sales 2031-07-01').waitFor();
    // $15,000 over 100 h: $150 against $180 is 83%, amber (and Total ELR with it).
    await enter('CP Sales 2031-07-01', '15000');
    await expect.poll(() => page.locator('.goal-alert').textContent()).toMatch(/^Goal alert: (CP|Total) ELR fell to amber: \$150 against a target of \$180( \(category mix\))?\./);
    // $12,000: $120, red; but CP ELR has alerted today already.
    await enter('CP Sales 2031-07-01', '12000');
    await page.getByRole('button', { name: 'Sync details' }).click();
    const activity = page.getByRole('region', { name: 'Sync details' }).locator('ul.activity li');
    await expect.poll(() => activity.allTextContents()).toHaveLength(2);
    const texts = await activity.allTextContents();
    expect(texts.filter((t) => t.includes('CP ELR fell'))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('Total ELR fell'))).toHaveLength(1);
    await page.getByRole('button', { name: 'Sync details' }).click();
  });

  it("shows the same month last year beside this one, from the device's data", async () => {
    const [row] = (
      await e2e.stack.database.query<{ month: string; now: string; before: string; sales_now: string; sales_before: string }>(
        `with m as (select date_trunc('month', current_date - interval '1 month')::date as first)
         select to_char(m.first, 'YYYY-MM') as month,
           (select (sum(value) filter (where metric_type = 'sales') / sum(value) filter (where metric_type = 'hours'))::text from daily_inputs
             where store_id = $1 and row_identifier = 'CP' and entry_date >= m.first and entry_date < m.first + interval '1 month') as now,
           (select (sum(value) filter (where metric_type = 'sales') / sum(value) filter (where metric_type = 'hours'))::text from daily_inputs
             where store_id = $1 and row_identifier = 'CP' and entry_date >= m.first - interval '1 year' and entry_date < m.first - interval '11 months') as before,
           (select sum(value)::text from daily_inputs where store_id = $1 and metric_type = 'sales' and row_identifier = 'CP' and entry_date >= m.first and entry_date < m.first + interval '1 month') as sales_now,
           (select sum(value)::text from daily_inputs where store_id = $1 and metric_type = 'sales' and row_identifier = 'CP' and entry_date >= m.first - interval '1 year' and entry_date < m.first - interval '11 months') as sales_before
         from m`,
        [demo.storeA],
      )
    ).rows;
    if (!row) throw new Error('no month');
    const change = (now: number, before: number) => {
      const pct = Math.round(((now - before) / before) * 100);
      return `${pct > 0 ? '+' : pct < 0 ? '−' : ''}${Math.abs(pct)}%`;
    };
    await page.goto(`${e2e.appUrl}/daily?month=${row.month}`);
    const tile = page.getByRole('group', { name: 'Month KPIs' }).getByRole('article', { name: 'CP ELR' });
    await expect.poll(() => tile.locator('.last-year').textContent(), { timeout: 20_000 }).toBe(
      `Last year: ${money.format(Number(row.before))} (${change(Number(row.now), Number(row.before))})`,
    );
    await page.goto(`${e2e.appUrl}/monthly?month=${row.month}`);
    const cp = page.getByRole('table', { name: 'Monthly performance' }).getByRole('row', { name: /CUSTOMER PAY/ }).locator('td');
    await expect.poll(() => cp.nth(5).textContent(), { timeout: 10_000 }).toBe(money.format(Number(row.sales_before)));
    expect(await cp.nth(6).textContent()).toBe(change(Number(row.sales_now), Number(row.sales_before)));
  });

  it('sets a month under way against last year at the share of its work days done', async () => {
    // This month from the server: its CP sales so far, the same month last year, the days
    // complete of its stored week parts (the demo stores those begun before today), and its
    // work days: Monday to Saturday less the store's holidays (the demo's pattern).
    const [row] = (
      await e2e.stack.database.query<{ month: string; sales_now: string; sales_before: string; dc: number; wd: number }>(
        `with m as (select date_trunc('month', current_date)::date as first)
         select to_char(m.first, 'YYYY-MM') as month,
           (select sum(value)::text from daily_inputs where store_id = $1 and metric_type = 'sales' and row_identifier = 'CP' and entry_date >= m.first and entry_date < m.first + interval '1 month') as sales_now,
           (select sum(value)::text from daily_inputs where store_id = $1 and metric_type = 'sales' and row_identifier = 'CP' and entry_date >= m.first - interval '1 year' and entry_date < m.first - interval '11 months') as sales_before,
           (select coalesce(sum(days_complete), 0)::int from weekly_store_performance where store_id = $1 and week_start_date >= m.first and week_start_date < m.first + interval '1 month') as dc,
           (select count(*)::int from generate_series(m.first, (m.first + interval '1 month - 1 day')::date, interval '1 day') d
             where extract(isodow from d) <> 7
               and d::date not in (select calendar_date from store_calendar_days where store_id = $1 and is_work_day = false)) as wd
         from m`,
        [demo.storeA],
      )
    ).rows;
    if (!row) throw new Error('no month');
    const partWay = row.dc > 0 && row.dc < row.wd;
    const basis = partWay ? (Number(row.sales_before) * row.dc) / row.wd : Number(row.sales_before);
    const change = (now: number, before: number) => {
      const pct = Math.round(((now - before) / before) * 100);
      return `${pct > 0 ? '+' : pct < 0 ? '−' : ''}${Math.abs(pct)}%`;
    };
    await page.goto(`${e2e.appUrl}/monthly?month=${row.month}`);
    const cp = page.getByRole('table', { name: 'Monthly performance' }).getByRole('row', { name: /CUSTOMER PAY/ }).locator('td');
    await expect.poll(() => cp.nth(5).textContent(), { timeout: 10_000 }).toBe(`${money.format(basis)}${partWay ? ` (${row.dc} of ${row.wd} days)` : ''}`);
    expect(await cp.nth(6).textContent()).toBe(change(Number(row.sales_now), basis));
  });

  it('shows how a table figure is computed on hover, on a tap and on keyboard focus', async () => {
    await page.goto(`${e2e.appUrl}/monthly?month=2031-07`);
    const totalSales = page.getByRole('table', { name: 'Monthly performance' }).getByRole('row', { name: /TOTAL SALES/ }).getByRole('button').first();
    await totalSales.hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('TOTAL SALES = the sum of the SALES column = $12,000.00 + $0.00 + $0.00 + $0.00 + $0.00 = $12,000.00');
    await page.mouse.move(0, 0);
    await expect.poll(() => page.getByRole('tooltip').count()).toBe(0);
    await totalSales.click();
    expect(await totalSales.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('tooltip').count()).toBe(0);
    const pacing = page.getByRole('table', { name: 'Monthly performance' }).getByRole('row', { name: /PACING/ }).getByRole('button');
    await pacing.focus();
    // $12,000 over 5 of 27 days: $64,800.
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('PACING = daily sales / days complete × work days = $12,000.00 / 5 × 27 = $64,800.00');
  });
});
