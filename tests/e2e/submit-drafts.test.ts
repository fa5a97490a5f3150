import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { ShellModel, showsNothingWaiting } from './support/pages.ts';

/**
 * Values typed in Submit mode (the One Page and /daily-weekly) are kept on the device
 * until "Submit Data": leaving the page or reloading it drops none, each is marked, and
 * the sync bar counts them.
 */
describe('values typed in Submit mode and not submitted yet', () => {
  let e2e: E2E;
  let context: BrowserContext;
  let page: Page;
  let shell: ShellModel;

  const bar = () => page.getByRole('status', { name: 'Sync status' });
  const inputs = (label: string) => page.locator(`input[aria-label="${label}"]`);
  /** The accessible description of the (single) input so named, as its aria-describedby gives it. */
  const description = (label: string) =>
    inputs(label).evaluate((input) =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
        .join(' ')
        .trim(),
    );
  const marked = (label: string) => inputs(label).evaluate((input) => input.classList.contains('unsubmitted'));
  const onServer = async (date: string) =>
    (
      await e2e.stack.database.query<{ value: string }>(
        `select value::text from daily_inputs where store_id = $1 and entry_date = $2 and row_identifier = 'CP' and metric_type = 'hours'`,
        [demo.storeA, date],
      )
    ).rows.map((row) => row.value);

  /** Types 777, leaves through the sidebar, comes back, reloads, submits: nothing is lost on the way. */
  async function journey(start: string, cell: string, date: string, back: () => Promise<void>, shot: string) {
    await page.goto(`${e2e.appUrl}${start}`);
    await page.getByRole('button', { name: 'Submit Data' }).first().waitFor();
    await inputs(cell).fill('777');
    await inputs(cell).press('Tab');
    await expect.poll(() => bar().textContent(), { timeout: 10_000 }).toContain('1 not submitted');
    await expect.poll(() => marked(cell)).toBe(true);
    expect(await description(cell)).toBe('not submitted');

    await shell.go('Monthly');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await expect.poll(() => inputs(cell).count()).toBe(0);
    expect(await bar().textContent()).toContain('1 not submitted');
    await back();
    await expect.poll(() => inputs(cell).inputValue(), { timeout: 15_000 }).toBe('777');
    expect(await marked(cell)).toBe(true);

    await page.reload();
    await expect.poll(() => inputs(cell).inputValue(), { timeout: 15_000 }).toBe('777');
    expect(await marked(cell)).toBe(true);
    await expect.poll(() => bar().textContent(), { timeout: 10_000 }).toContain('1 not submitted');
    await inputs(cell).scrollIntoViewIfNeeded();
    await e2e.screenshot(page, shot);
    expect(await onServer(date)).toEqual([]);

    await page.getByRole('button', { name: 'Submit Data' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Data submitted successfully!' }).count()).toBe(1);
    await expect.poll(() => marked(cell)).toBe(false);
    expect(await inputs(cell).inputValue()).toBe('777');
    await expect.poll(() => bar().textContent(), { timeout: 20_000 }).toSatisfy(showsNothingWaiting);
    expect(await bar().textContent()).not.toContain('not submitted');
    expect(await onServer(date)).toEqual(['777.00']);
  }

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page, context } = await e2e.signedInPage('manager@example.com', { width: 1600, height: 1000 }));
    shell = new ShellModel(page);
  });
  afterAll(() => e2e?.close());

  it('on the One Page: kept through the sidebar and a reload, marked, counted, then submitted', async () => {
    await journey('/?view=all&month=2031-08', 'CP Hours 2031-08-04', '2031-08-04', () => shell.go('One Page'), 'drafts-one-page');
  });

  it('on /daily-weekly: kept through the sidebar and a reload, marked, counted, then submitted', async () => {
    await journey('/daily-weekly?month=2031-09', 'CP Hours 2031-09-01', '2031-09-01', () => page.goBack().then(() => undefined), 'drafts-daily-weekly');
  });

  it('shows a draft in every tab of the device, and discards drafts after a confirmation naming their count', async () => {
    await page.goto(`${e2e.appUrl}/daily-weekly?month=2031-09`);
    await inputs('CP Sales 2031-09-02').fill('1234');
    await inputs('CP Sales 2031-09-02').press('Tab');
    const other = await context.newPage();
    await other.setViewportSize({ width: 1600, height: 1000 });
    await other.goto(`${e2e.appUrl}/daily-weekly?month=2031-09`);
    await expect.poll(() => other.locator('input[aria-label="CP Sales 2031-09-02"]').inputValue(), { timeout: 15_000 }).toBe('1234');
    await other.close();

    await page.getByRole('button', { name: 'Discard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Discard values not submitted' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Discard 1 value not submitted?');
    await dialog.getByRole('button', { name: 'Discard 1 value' }).click();
    await expect.poll(() => inputs('CP Sales 2031-09-02').inputValue()).toBe('');
    await expect.poll(() => bar().textContent()).not.toContain('not submitted');
  });

  it('asks before signing out would delete them, and Cancel keeps them', async () => {
    await page.goto(`${e2e.appUrl}/daily-weekly?month=2031-09`);
    await inputs('W Hours 2031-09-03').fill('12');
    await inputs('W Hours 2031-09-03').press('Tab');
    await expect.poll(() => bar().textContent(), { timeout: 10_000 }).toContain('1 not submitted');
    await shell.logout();
    const dialog = page.getByRole('dialog', { name: 'Edits not sent yet' });
    await dialog.waitFor();
    await expect.poll(() => dialog.textContent()).toContain('1 value typed on this device was not submitted (Submit Data). Signing out deletes it.');
    expect(await dialog.textContent()).not.toContain('not reached the server');
    await e2e.screenshot(page, 'drafts-sign-out');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(page.url()).toContain('/daily-weekly');
    expect(await inputs('W Hours 2031-09-03').inputValue()).toBe('12');
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('dialog', { name: 'Discard values not submitted' }).getByRole('button', { name: 'Discard 1 value' }).click();
    await expect.poll(() => bar().textContent()).not.toContain('not submitted');
  });

  it("keeps a closed month's value, says it cannot be submitted, and lets the person discard it", async () => {
    await page.goto(`${e2e.appUrl}/daily-weekly?month=2031-11`);
    await inputs('CP Hours 2031-11-03').fill('9');
    await inputs('CP Hours 2031-11-03').press('Tab');
    await expect.poll(() => bar().textContent(), { timeout: 10_000 }).toContain('1 not submitted');
    const status = page.getByRole('group', { name: 'Month status' });
    await status.getByRole('button', { name: 'Close month' }).click();
    await status.getByRole('button', { name: 'Close November 2031' }).click();
    const drafts = page.getByRole('group', { name: 'Values not submitted' });
    await expect
      .poll(() => drafts.textContent(), { timeout: 30_000 })
      .toContain("1 value for November 2031, a closed month, cannot be submitted: the server refuses a closed month's figures.");
    expect(await inputs('CP Hours 2031-11-03').inputValue()).toBe('9');
    expect(await marked('CP Hours 2031-11-03')).toBe(true);
    await e2e.screenshot(page, 'drafts-closed-month');
    await page.getByRole('button', { name: 'Submit Data' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'No changes to submit.' }).count()).toBe(1);
    await drafts.getByRole('button', { name: "Discard the closed month's values" }).click();
    const dialog = page.getByRole('dialog', { name: 'Discard values not submitted' });
    expect(await dialog.textContent()).toContain('Discard 1 value not submitted?');
    await dialog.getByRole('button', { name: 'Discard 1 value' }).click();
    await expect.poll(() => inputs('CP Hours 2031-11-03').inputValue()).toBe('');
    await expect.poll(() => bar().textContent()).not.toContain('not submitted');
    expect(await onServer('2031-11-03')).toEqual([]);
  });

  it('has one Days Comp input per week part on the One Page, and every screen shows its value, a draft included', async () => {
    await page.goto(`${e2e.appUrl}/?view=all&month=2031-10`);
    await page.getByRole('button', { name: 'Submit Data' }).waitFor();
    await page.locator('#weekly-section article[aria-label="Week 2"]').waitFor();
    // The Daily section draws its grid once its month and drafts are read, in slices, so
    // it may come after the Weekly section: counted once it is there.
    await page.getByLabel('CP Hours 2031-10-31').waitFor();
    expect(await inputs('Days Complete Week 2').count()).toBe(1);
    expect(await inputs('Work Days Week 2').count()).toBe(1);
    await inputs('Days Complete Week 2').fill('3');
    await inputs('Days Complete Week 2').press('Tab');
    const weeklyValue = () => page.locator('#weekly-section article[aria-label="Week 2"] [data-field="daysComplete"] .week-day-value').textContent();
    await expect.poll(weeklyValue).toBe('3');
    expect(await page.locator('#weekly-section article[aria-label="Week 2"] [data-field="daysComplete"]').textContent()).toContain('not submitted');
    await page.locator('#weekly-section').scrollIntoViewIfNeeded();
    await e2e.screenshot(page, 'drafts-one-page-weekly');
    // Its link brings the person to the one input.
    await page.locator('#weekly-section article[aria-label="Week 2"]').getByRole('button', { name: 'Change Days Comp in Daily' }).click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Days Complete Week 2');

    // The Weekly screen alone keeps its input, showing the same value, marked as a draft.
    await shell.go('Weekly');
    await expect.poll(() => inputs('Days Complete Week 2').inputValue(), { timeout: 15_000 }).toBe('3');
    expect(await marked('Days Complete Week 2')).toBe(true);
    await e2e.screenshot(page, 'drafts-weekly');

    await shell.go('One Page');
    await page.getByRole('button', { name: 'Submit Data' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Data submitted successfully!' }).count()).toBe(1);
    await expect.poll(weeklyValue).toBe('3');
    const days = async () =>
      (await e2e.stack.database.query<{ days: number }>(`select days_complete as days from weekly_store_performance where store_id = $1 and week_start_date = '2031-10-05'`, [demo.storeA]))
        .rows.map((row) => row.days);
    await expect.poll(days, { timeout: 20_000 }).toEqual([3]);
    expect(await page.locator('#weekly-section article[aria-label="Week 2"] [data-field="daysComplete"]').textContent()).not.toContain('not submitted');
  });
});
