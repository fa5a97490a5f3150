import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

describe('the Monthly and Service Overview screens', () => {
  let e2e: E2E;
  let page: Page;
  let lastMonth: string;
  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('manager@example.com', { width: 1440, height: 1000 }));
    const { rows } = await e2e.stack.database.query<{ month: string }>(`select to_char(current_date - interval '1 month', 'YYYY-MM') as month`);
    lastMonth = rows[0]?.month ?? '';
  });
  afterAll(() => e2e?.close());

  it("shows last month's labour table and total sales as the server's rows add up, with the hours mix", async () => {
    const { rows } = await e2e.stack.database.query<{ cp_hours: string; daily_sales: string; sublet: string; cp_gross: string; all_gross: string }>(
      `select
         (select sum(value)::text from daily_inputs where store_id = $1 and row_identifier = 'CP' and metric_type = 'hours' and to_char(entry_date, 'YYYY-MM') = $2) as cp_hours,
         (select sum(value)::text from daily_inputs where store_id = $1 and metric_type = 'sales' and to_char(entry_date, 'YYYY-MM') = $2) as daily_sales,
         (select direct_sales_value::text from monthly_labor_gross_inputs where store_id = $1 and labor_type = 'sublet' and to_char(month_year, 'YYYY-MM') = $2) as sublet,
         (select gross_value::text from monthly_labor_gross_inputs where store_id = $1 and labor_type = 'customerPay' and to_char(month_year, 'YYYY-MM') = $2) as cp_gross,
         (select sum(gross_value)::text from monthly_labor_gross_inputs where store_id = $1 and to_char(month_year, 'YYYY-MM') = $2) as all_gross`,
      [demo.storeA, lastMonth],
    );
    const expected = rows[0];
    if (!expected) throw new Error('no figures');
    await page.goto(`${e2e.appUrl}/monthly?month=${lastMonth}`);
    const table = page.getByRole('table', { name: 'Monthly performance' });
    await expect.poll(() => page.getByLabel('Gross CUSTOMER PAY').inputValue(), { timeout: 20_000 }).toBe(String(Number(expected.cp_gross)));
    const cpRow = table.getByRole('row', { name: /CUSTOMER PAY/ });
    const hours = Number(expected.cp_hours);
    await expect.poll(async () => (await cpRow.locator('td').nth(1).textContent())?.trim()).toBe(
      new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 2 }).format(hours),
    );
    const totalSales = table.getByRole('row', { name: /TOTAL SALES/ });
    // The SALES column of the footer: the daily sales plus sublet, as the rows above show them.
    await expect.poll(async () => (await totalSales.locator('td').nth(1).textContent())?.trim()).toBe(money.format(Number(expected.daily_sales) + Number(expected.sublet)));
    // TOTAL LABOUR is the GROSS column: all five rows, sublet and unapplied time included.
    const totalLabour = table.getByRole('row', { name: /TOTAL LABOUR/ });
    expect((await totalLabour.locator('td').nth(3).textContent())?.trim()).toBe(money.format(Number(expected.all_gross)));
    await page.getByRole('img', { name: /^Hours mix: CP / }).waitFor();
    expect(await page.getByText('Target: CP 40%, W 30%, I 30%').count()).toBe(1);
    await e2e.screenshot(page, 'monthly-dark', { fullPage: true });
  });

  it('saves a gross value when the cell loses focus', async () => {
    await page.goto(`${e2e.appUrl}/monthly?month=2031-08`);
    await page.getByLabel('Gross WARRANTY').fill('51234');
    await page.getByLabel("RO's WARRANTY").click();
    await expect.poll(() => page.locator('.save-status').textContent()).toBe('Saved');
    const server = async () =>
      (await e2e.stack.database.query(`select gross_value::text from monthly_labor_gross_inputs where month_year = '2031-08-01' and labor_type = 'warranty'`)).rows;
    await expect.poll(server, { timeout: 20_000 }).toEqual([{ gross_value: '51234.00' }]);
  });

  it('shows the store configuration in whole dollars and the month’s days', async () => {
    await page.goto(`${e2e.appUrl}/service-overview?month=${lastMonth}`);
    const config = page.getByRole('definition');
    await expect.poll(() => config.allTextContents(), { timeout: 20_000 }).toContain('$190'); // 189.95 in the seed
    expect(await config.allTextContents()).toContain('24'); // stalls
    await page.getByRole('button', { name: 'Next Month' }).click();
    expect(page.url()).toContain(`month=`);
    await e2e.screenshot(page, 'service-overview-dark', { fullPage: true });
  });
});
