import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

describe('the Yearly Trend screen', () => {
  let e2e: E2E;
  let page: Page;
  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('manager@example.com', { width: 1600, height: 1000 }));
  });
  afterAll(() => e2e?.close());

  it("shows last year's demo months with GP% as the server's rows give it", async () => {
    const { rows } = await e2e.stack.database.query<{ year: number; sales: string; pct: string }>(
      `select year, sales::text, round(gp_net / sales * 100)::text as pct from yearly_financial_inputs
       where store_id = $1 and year = extract(year from current_date)::int - 1 and month = 3`,
      [demo.storeA],
    );
    const march = rows[0];
    if (!march) throw new Error('no seeded month');
    await page.goto(`${e2e.appUrl}/yearly?month=${march.year + 1}-01`);
    const sales = page.getByLabel(`Sales March ${march.year}`);
    await expect.poll(() => sales.inputValue(), { timeout: 20_000 }).toBe(String(Number(march.sales)));
    const row = page.getByRole('table', { name: `Yearly trend ${march.year}` }).getByRole('row', { name: /^March/ });
    expect((await row.locator('td').nth(2).textContent())?.trim()).toBe(`${march.pct}%`);
    // This year's March beside last year's: the sales then and the change since, from the server's rows.
    const [change] = (
      await e2e.stack.database.query<{ pct: string }>(
        `select round((c.sales - p.sales) / p.sales * 100)::int::text as pct from yearly_financial_inputs c
         join yearly_financial_inputs p on p.store_id = c.store_id and p.year = c.year - 1 and p.month = c.month
         where c.store_id = $1 and c.year = $2 and c.month = 3`,
        [demo.storeA, march.year + 1],
      )
    ).rows;
    const thisYear = page.getByRole('table', { name: `Yearly trend ${march.year + 1}` }).getByRole('row', { name: /^March/ });
    const cells = await thisYear.locator('td').allTextContents();
    expect(cells[1]?.trim()).toBe(money.format(Number(march.sales)));
    const pct = Number(change?.pct);
    expect(cells[2]?.trim()).toBe(`${pct > 0 ? '+' : pct < 0 ? '−' : ''}${Math.abs(pct)}%`);
    await page.screenshot({ path: await e2e.screenshotPath('yearly-dark'), fullPage: true });
  });

  it('auto-saves a changed month with the spec’s message, and saves zero as no value', async () => {
    await page.goto(`${e2e.appUrl}/yearly?month=2031-01`);
    await page.getByLabel('Sales February 2031').fill('350000');
    await page.getByLabel('GP Net February 2031').click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'auto-saved' }).first().textContent()).toBe('February 2031 auto-saved successfully!');
    await expect.poll(() => page.getByText('February 2031 auto-saved successfully!').count(), { timeout: 5000 }).toBe(0);
    await page.getByLabel('GP Net February 2031').fill('0');
    await page.getByLabel('Hours February 2031').click();
    const server = async () =>
      (await e2e.stack.database.query(`select sales::text, gp_net from yearly_financial_inputs where year = 2031 and month = 2`)).rows;
    await expect.poll(server, { timeout: 20_000 }).toEqual([{ sales: '350000.00', gp_net: null }]);
  });
});
