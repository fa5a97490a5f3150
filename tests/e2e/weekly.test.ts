import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';

describe('the Weekly screen', () => {
  let e2e: E2E;
  let page: Page;
  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('manager@example.com', { width: 1440, height: 900 }));
  });
  afterAll(() => e2e?.close());

  it('saves days complete as it changes, says "Saved" and then clears it', async () => {
    await page.goto(`${e2e.appUrl}/weekly?month=2031-07`);
    await page.getByText('Manage weekly performance data and summaries').waitFor();
    expect(await page.getByRole('combobox', { name: 'Week figures' }).locator('option').allTextContents()).toEqual(['Daily Average', 'Weekly Total']);
    await page.getByLabel('Days Complete Week 2').fill('5');
    await page.getByLabel('Work Days Week 2').click();
    await expect.poll(() => page.locator('.save-status').textContent(), { timeout: 10_000, interval: 50 }).toBe('Saved');
    await expect.poll(() => page.locator('.save-status').textContent(), { timeout: 5000 }).toBe('');
    await page.reload();
    await expect.poll(() => page.getByLabel('Days Complete Week 2').inputValue(), { timeout: 10_000 }).toBe('5');
    await e2e.screenshot(page, 'weekly-dark', { fullPage: true });
  });
});
