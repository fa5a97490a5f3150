/**
 * "Share today's numbers" in Chromium: with a share sheet (navigator.share, replaced here
 * by a stub that keeps the text) the recap goes to it; without one it is copied to the
 * clipboard with a confirmation. Offline as online, from the device's own figures, which
 * read as the screen beside the button reads them.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineFailures } from './support/browser.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { SyncBarModel } from './support/pages.ts';

type SharedWindow = { __shared: string[] };

describe("sharing today's numbers", () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  async function signedIn(): Promise<{ page: Page; context: BrowserContext }> {
    const signed = await e2e.signedInPage('manager@example.com', { width: 1366, height: 900 });
    await new SyncBarModel(signed.page).waitForSynced();
    return signed;
  }

  it('hands the recap to the share sheet, offline too, with the figures the Daily screen shows', async () => {
    const { page, context } = await signedIn();
    await context.addInitScript(() => {
      const shared: string[] = [];
      (window as unknown as SharedWindow).__shared = shared;
      Object.defineProperty(Navigator.prototype, 'share', {
        configurable: true,
        value: (data: { text?: string }) => {
          shared.push(data.text ?? '');
          return Promise.resolve();
        },
      });
    });
    await page.goto(`${e2e.appUrl}/daily`);
    await page.getByRole('article', { name: 'Total ELR' }).waitFor({ timeout: 30_000 });
    e2e.expectConsoleErrors(offlineFailures);
    await context.setOffline(true);
    await page.getByRole('button', { name: "Share today's numbers" }).click();
    await page.getByRole('status').filter({ hasText: /^Shared\.$/ }).waitFor();
    const [text] = await page.evaluate(() => (window as unknown as SharedWindow).__shared);
    const lines = (text ?? '').split('\n');
    // The demo store has figures up to yesterday: the recap is of the latest day with figures.
    expect(lines[0]).toMatch(/^Demo Motors: service numbers for \w+day, \w+ \d{1,2}, \d{4}$/);
    expect(lines[1]).toMatch(/^Day: [\d,.]+ h, \$[\d,]+, ELR \$[\d,]+$/);
    expect(lines[2]).toMatch(/^CP [\d,.]+ h, \$[\d,]+, ELR \$[\d,]+; W .+; I .+$/);

    // The month's line agrees with the tiles and the pace panel on the screen.
    const tile = async (name: string) => (await page.getByRole('article', { name }).locator('.headline').textContent())?.trim();
    const monthComplete = (await page.getByRole('article', { name: 'Month Complete' }).textContent()) ?? '';
    const [, daysComplete, workDays] = /(\d+) days.*?(\d+) work days/.exec(monthComplete) ?? [];
    expect(lines[3]?.endsWith(`, ELR ${await tile('Total ELR')}`)).toBe(true);
    expect(lines[3]).toMatch(new RegExp(`^Month to date \\(${daysComplete} of ${workDays} work days complete\\): `));
    expect(lines[4]).toContain(`CP `);
    expect(lines[4]).toContain(`ELR ${await tile('CP ELR')}; W `);
    const paceWords = async (figure: string) =>
      (await page.getByRole('table', { name: 'Pace to goal' }).getByRole('row', { name: new RegExp(`^${figure} `) }).locator('.pace-words').textContent())?.trim();
    expect(lines).toContain(`Sales: ${await paceWords('Sales')}`);
    expect(lines).toContain(`Hours: ${await paceWords('Hours')}`);
    expect(lines).toContain(`Total ELR: ${await paceWords('Total ELR')}`);
    // The demo's advisors share the month: the one with the most labour sales is named.
    expect(lines.at(-1)).toMatch(/^Top advisor: .+, \$[\d,]+ labour sales on [\d,.]+ h this month$/);
    await context.setOffline(false);
  });

  it('copies the recap to the clipboard where there is no share sheet, and says so', async () => {
    const { page, context } = await signedIn();
    await context.addInitScript(() => {
      delete (Navigator.prototype as { share?: unknown }).share;
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.appUrl });
    await page.goto(`${e2e.appUrl}/today`);
    const share = page.getByRole('button', { name: "Share today's numbers" });
    await expect.poll(() => share.isEnabled(), { timeout: 30_000 }).toBe(true);
    await share.click();
    await page.getByRole('status').filter({ hasText: "Copied today's numbers: paste them into the team's chat." }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const lines = copied.split('\n');
    expect(lines[0]).toMatch(/^Demo Motors: service numbers for /);
    expect(lines.some((line) => line.startsWith('Month to date ('))).toBe(true);
    expect(lines.some((line) => /^Sales pacing \$[\d,]+ against a target of \$[\d,]+\.$/.test(line))).toBe(true);
    // Today's own pace line reads the same.
    const pacing = (await page.getByText(/^Sales pacing \$[\d,]+ against a target of \$[\d,]+ \(/).textContent()) ?? '';
    expect(lines).toContain(`${pacing.replace(/ \(.*$/, '')}.`);
  });
});
