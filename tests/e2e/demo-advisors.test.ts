import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The demo store's score card compares people: each advisor's own rate and hours per RO, from the server's rows. */
describe("the demo store's advisors", () => {
  let e2e: E2E;
  let page: Page;
  let context: BrowserContext;
  beforeAll(async () => {
    e2e = await startE2E();
    ({ page, context } = await e2e.signedInPage('manager@example.com', { width: 1366, height: 768 }));
  });
  afterAll(async () => {
    await context?.close();
    await e2e?.close();
  });

  it('show a labour rate and CP hours per RO of their own on the score card of last month', async () => {
    const advisors = (
      await e2e.stack.database.query<{ month: string; name: string; sales: string; hours: string; cp_hours: string; cp_ros: string }>(
        `select to_char(t.entry_date, 'YYYY-MM') as month, a.advisor_name as name, t.labour_sales::text as sales, t.total_hours::text as hours,
                t.cp_hours::text as cp_hours, t.cp_ros::text as cp_ros
           from front_end_team_advisor_totals t join front_end_team_advisors a on a.id = t.advisor_id
          where t.store_id = $1 and t.entry_date = date_trunc('month', current_date - interval '1 month')::date
          order by a.created_at`,
        [demo.storeA],
      )
    ).rows;
    expect(advisors).toHaveLength(3);
    await page.goto(`${e2e.appUrl}/front-end-team?month=${advisors[0]?.month}`);
    const shown: string[] = [];
    for (const advisor of advisors) {
      const row = page.getByRole('table', { name: 'Score Card' }).getByRole('row', { name: new RegExp(`^${advisor.name}`) });
      const elr = money.format(Number(advisor.sales) / Number(advisor.hours));
      await expect.poll(async () => (await row.locator('td').allTextContents())[4], { timeout: 20_000 }).toBe(elr);
      const hoursPerRo = oneDecimal.format(Number(advisor.cp_hours) / Number(advisor.cp_ros));
      expect((await row.locator('td').allTextContents())[6]).toBe(hoursPerRo);
      shown.push(`${elr} ${hoursPerRo}`);
    }
    // Three people, three different rates and three different hours per RO as shown.
    expect(new Set(shown.map((s) => s.split(' ')[0])).size).toBe(3);
    expect(new Set(shown.map((s) => s.split(' ')[1])).size).toBe(3);
    await page.getByRole('table', { name: 'Score Card' }).scrollIntoViewIfNeeded();
    await e2e.screenshot(page, 'figures-demo-score-card');
  });
});
