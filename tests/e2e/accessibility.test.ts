import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { LoginPageModel, ShellModel } from './support/pages.ts';
import { seriousViolations } from './support/axe.ts';

describe('accessibility of each screen (axe-core), in dark and light', () => {
  let e2e: E2E;
  let page: Page;
  beforeAll(async () => {
    e2e = await startE2E();
    const context = await e2e.newContext();
    page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1440, height: 900 });
  });
  afterAll(() => e2e?.close());

  it('finds no serious or critical problems on the login page', async () => {
    const login = new LoginPageModel(page);
    await login.open(e2e.appUrl);
    expect(await seriousViolations(page)).toEqual([]);
    await e2e.screenshot(page, 'login-dark');
    await login.signIn('admin@example.com');
    await new ShellModel(page).waitForSignedIn();
  });

  const screens: Array<[path: string, ready: string, tab?: string]> = [
    ['/', 'KPI Dashboard'],
    ['/today', 'Today'],
    ['/daily', 'Daily Performance'],
    ['/daily-weekly', 'Daily and Weekly Performance'],
    ['/weekly', 'Weekly Performance'],
    ['/monthly', 'Monthly Performance'],
    ['/yearly', 'Yearly Trend'],
    ['/service-overview', 'Service Overview'],
    ['/front-end-team', 'Score Card'],
    ['/settings', 'Targets for'],
    ['/settings', 'Service Overview Settings', 'Service Overview Settings'],
    ['/settings', 'Dashboard KPIs', 'Dashboard KPIs'],
    ['/settings', 'Work Pattern', 'Work Pattern'],
    ['/admin', 'Add User'],
    ['/admin', 'Add Store', 'Manage Stores'],
  ];

  for (const theme of ['dark', 'light'] as const) {
    it.each(screens)(`finds no serious or critical problems on %s (%s) in ${theme} mode`, async (path, ready, tab) => {
      await page.goto(`${e2e.appUrl}${path}?month=2026-11`);
      // The theme is kept in the browser: set once per theme, then every load has it.
      if ((await page.evaluate(() => localStorage.getItem('theme'))) !== theme) {
        await page.evaluate((t) => localStorage.setItem('theme', t), theme);
        await page.reload();
      }
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      if (tab) await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('heading', { name: ready }).first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      const name = `${path.replace(/\//g, '') || 'one-page'}${tab ? `-${tab.toLowerCase().replace(/\s+/g, '-')}` : ''}-${theme}`;
      await e2e.screenshot(page, name, { fullPage: true });
    });
  }

  it('reports a planted problem (the scan itself works)', async () => {
    await page.goto(`${e2e.appUrl}/settings`);
    await page.locator('main').waitFor();
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'text';
      document.querySelector('main')?.append(input);
    });
    expect((await seriousViolations(page)).some((v) => v.startsWith('critical label'))).toBe(true);
  });
});
