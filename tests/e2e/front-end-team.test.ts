import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { offlineFailures } from './support/browser.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

type AdvisorMonth = { name: string; days: string; pay: string; ros: string; labour: string; parts: string; alignments: string } & Record<string, unknown>;

describe('the Front End Team screen', () => {
  let e2e: E2E;
  let page: Page;
  let context: BrowserContext;
  let currentMonth: string;
  const server = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) => (await e2e.stack.database.query<T>(sql, params)).rows;

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page, context } = await e2e.signedInPage('manager@example.com', { width: 1440, height: 1000 }));
    currentMonth = (await server<{ month: string }>(`select to_char(current_date, 'YYYY-MM') as month`))[0]?.month ?? '';
  });
  afterAll(() => e2e?.close());

  it("shows each advisor's days, pay and score card as the server's rows give them", async () => {
    const advisors = await server<AdvisorMonth>(
      `select a.advisor_name as name, p.days_worked::text as days, p.pay_amount::text as pay, t.total_ros::text as ros,
              t.labour_sales::text as labour, t.parts_labour::text as parts, o.alignments::text as alignments
         from front_end_team_advisors a
         join front_end_team_daily_performance p on p.advisor_id = a.id and to_char(p.entry_date, 'YYYY-MM') = $2
         join front_end_team_advisor_totals t on t.advisor_id = a.id and to_char(t.entry_date, 'YYYY-MM') = $2
         join front_end_team_advisor_op_codes o on o.advisor_id = a.id and to_char(o.entry_date, 'YYYY-MM') = $2
        where a.store_id = $1 and a.is_active order by a.created_at`,
      [demo.storeA, currentMonth],
    );
    expect(advisors.map((a) => a.name)).toEqual(['Jordan Lee', 'Priya Patel', 'Sam Carter']);
    await page.goto(`${e2e.appUrl}/front-end-team?month=${currentMonth}`);
    await page.getByRole('heading', { name: /^FRONT END TEAM - / }).waitFor();

    for (const advisor of advisors) {
      await expect.poll(() => page.getByLabel(`Days Worked ${advisor.name}`).inputValue(), { timeout: 20_000 }).toBe(String(Number(advisor.days)));
      expect(await page.getByLabel(`PAY ${advisor.name}`).inputValue()).toBe(String(Number(advisor.pay)));
      const scoreRow = page.getByRole('table', { name: 'Score Card' }).getByRole('row', { name: new RegExp(`^${advisor.name}`) });
      const ros = Number(advisor.ros);
      // The first sync brings each table in turn: the totals may land after the days worked.
      await expect.poll(async () => (await scoreRow.locator('td').allTextContents())[0], { timeout: 20_000 }).toBe(money.format(Number(advisor.parts) / ros));
      const cells = await scoreRow.locator('td').allTextContents();
      const days = Number(advisor.days);
      expect(cells[0]).toBe(money.format(Number(advisor.parts) / ros)); // total sales per RO
      expect(cells[1]).toBe(oneDecimal.format(days > 0 ? ros / days : 0)); // ROs per day
      expect(cells[2]).toBe(money.format(Number(advisor.labour) / ros)); // labour per RO
      const alignments = page.getByRole('table', { name: 'Op Code Focus' }).getByRole('row', { name: new RegExp(`^${advisor.name}`) }).locator('td').first();
      // The op codes table may arrive after the totals on a first sync.
      await expect.poll(() => alignments.locator('.share').textContent(), { timeout: 20_000 }).toBe(`${Math.round((Number(advisor.alignments) / ros) * 100)}% of ROs`);
    }
    const teamPay = advisors.reduce((sum, a) => sum + Number(a.pay), 0);
    const totalsRow = page.getByRole('table', { name: 'Front End Team' }).getByRole('row', { name: /^TOTALS PROJECTING/ });
    expect(await totalsRow.locator('td').nth(1).locator('.figure-total').textContent()).toBe(money.format(teamPay));
    await e2e.screenshot(page, 'front-end-team-dark', { fullPage: true });
  });

  it('adds an advisor, refuses a blank name, and removes one only after confirming', async () => {
    const named = (name: string) => server<{ is_active: boolean }>(`select is_active from front_end_team_advisors where store_id = $1 and advisor_name = $2`, [demo.storeA, name]);
    await page.getByRole('button', { name: 'Add Advisor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Advisor' });
    await dialog.getByLabel('Enter advisor name:').fill('   ');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('Error adding advisor: Enter a name for the advisor.');
    await dialog.getByLabel('Enter advisor name:').fill('Riley Chen');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel('Days Worked Riley Chen').waitFor();
    await expect.poll(() => named('Riley Chen'), { timeout: 20_000 }).toEqual([{ is_active: true }]);

    await page.getByRole('button', { name: 'Remove Riley Chen' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Riley Chen?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByLabel('Days Worked Riley Chen').count()).toBe(1);
    await page.getByRole('button', { name: 'Remove Riley Chen' }).click();
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(() => page.getByLabel('Days Worked Riley Chen').count()).toBe(0);
    await expect.poll(() => named('Riley Chen'), { timeout: 20_000 }).toEqual([{ is_active: false }]);
  });

  it('refuses text in a number cell and changes nothing', async () => {
    const pay = page.getByLabel('PAY Sam Carter');
    const before = await pay.inputValue();
    await pay.fill('lots');
    await page.getByLabel('Days Worked Sam Carter').click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('PAY Sam Carter: "lots" is not a number; enter a number from 0 to 1,000,000.');
    expect(await pay.getAttribute('aria-invalid')).toBe('true');
    await pay.press('Escape');
    expect(await pay.inputValue()).toBe(before);
  });

  it('saves an NPS as typed and a score card target, and compares the team with it', async () => {
    await page.goto(`${e2e.appUrl}/front-end-team?month=${currentMonth}`);
    const [team] = await server<{ labour: string; hours: string }>(
      `select sum(labour_sales)::text as labour, sum(total_hours)::text as hours from front_end_team_advisor_totals where store_id = $1 and to_char(entry_date, 'YYYY-MM') = $2`,
      [demo.storeA, currentMonth],
    );
    const elr = Number(team?.labour) / Number(team?.hours);
    const scoreCard = page.getByRole('table', { name: 'Score Card' });
    const elrColumn = 4; // Total Sales / RO, ROs / Day, Labour / RO, Labour / Day, ELR
    const cellOf = (row: RegExp) => scoreCard.getByRole('row', { name: row }).locator('td').nth(elrColumn);
    await expect.poll(() => cellOf(/^TEAM TOTAL/).textContent(), { timeout: 20_000 }).toBe(money.format(elr));
    expect(await cellOf(/^VS TARGET/).textContent()).toBe('No Target');

    // A target the field takes (cents at most), about twice the team's rate: VS TARGET near 50%.
    const target = Math.round(elr * 2);
    await page.getByLabel('Target ELR').fill(String(target));
    await page.getByLabel('NPS Score Jordan Lee').fill('82%');
    await page.getByLabel('Email Penetration Jordan Lee').click();
    await expect.poll(() => cellOf(/^VS TARGET/).textContent()).toBe(`${Math.round((elr / target) * 100)}%`);
    await expect
      .poll(
        async () => [
          ...(await server(`select elr::text as elr from front_end_team_targets where store_id = $1 and to_char(make_date(year, month, 1), 'YYYY-MM') = $2`, [demo.storeA, currentMonth])),
          ...(await server(`select nps_score from advisor_survey_data where advisor_id = $1 and to_char(make_date(year, month, 1), 'YYYY-MM') = $2`, [demo.advisorA, currentMonth])),
        ],
        { timeout: 20_000 },
      )
      .toEqual([{ elr: target.toFixed(2) }, { nps_score: '82%' }]);
  });

  it('keeps op codes and a total entered offline through an offline reload, and sends them once the network is back', async () => {
    await page.goto(`${e2e.appUrl}/front-end-team?month=2031-06`);
    await page.getByLabel('Total ROs Priya Patel').waitFor();
    await page.evaluate(async () => navigator.serviceWorker.ready);
    // Offline on purpose: the browser logs the requests it cannot make.
    e2e.expectConsoleErrors(offlineFailures);
    await context.setOffline(true);
    await page.getByLabel('Total ROs Priya Patel').fill('200');
    await page.getByLabel('Alignments Priya Patel').fill('30');
    await page.getByLabel('Tire Sales Priya Patel').click();
    const share = page.getByRole('table', { name: 'Op Code Focus' }).getByRole('row', { name: /^Priya Patel/ }).locator('td').first().locator('.share');
    await expect.poll(() => share.textContent()).toBe('15% of ROs'); // 30 of 200
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    await page.reload();
    await expect.poll(() => page.getByLabel('Alignments Priya Patel').inputValue(), { timeout: 15_000 }).toBe('30');
    expect(await page.getByLabel('Total ROs Priya Patel').inputValue()).toBe('200');
    const onServer = () =>
      server(
        `select t.total_ros::text as ros, o.alignments::text as alignments, t.entry_date::text as day
           from front_end_team_advisor_totals t join front_end_team_advisor_op_codes o using (store_id, advisor_id, entry_date)
          where t.store_id = $1 and t.advisor_id = $2 and t.year = 2031 and t.month = 6`,
        [demo.storeA, 'cccccccc-0000-4000-8000-000000000002'], // Priya Patel
      );
    expect(await onServer()).toEqual([]);
    await context.setOffline(false);
    await expect.poll(onServer, { timeout: 20_000 }).toEqual([{ ros: '200.00', alignments: '30.00', day: '2031-06-01' }]);
  });
});
