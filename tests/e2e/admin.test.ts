import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { offlineFailures } from './support/browser.ts';
import { LoginPageModel, ShellModel } from './support/pages.ts';

describe('the admin area', () => {
  let e2e: E2E;
  let admin: Page;
  let adminContext: BrowserContext;
  const message = () => admin.locator('[role="status"].success, [role="alert"].error').first();

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page: admin, context: adminContext } = await e2e.signedInPage('admin@example.com'));
    admin.on('dialog', (dialog) => void dialog.accept());
    await admin.goto(`${e2e.appUrl}/admin`);
    await admin.getByRole('table', { name: 'Users' }).waitFor();
  });
  afterAll(() => e2e?.close());

  it('lists the users with their status', async () => {
    const rows = await admin.getByRole('table', { name: 'Users' }).locator('tbody tr').allTextContents();
    expect(rows.length).toBe(3);
    expect(rows.find((row) => row.includes('manager@example.com'))).toContain('Confirmed');
    await e2e.screenshot(admin, 'admin-users');
  });

  it('creates a store and a user in it, who can then sign in and work there', async () => {
    await admin.getByRole('tab', { name: 'Manage Stores' }).click();
    await admin.getByLabel('Store name').fill('Westside Motors');
    await admin.getByLabel('Subdomain (optional)').fill('westside');
    await admin.getByRole('button', { name: 'Add Store' }).click();
    await expect.poll(() => message().textContent()).toBe('Store "Westside Motors" added successfully!');
    await expect.poll(() => admin.getByRole('table', { name: 'Stores' }).locator('tbody tr td:first-child').allTextContents()).toEqual([
      'Demo Motors',
      'Northside Auto Service',
      'Westside Motors',
    ]);

    await admin.getByRole('tab', { name: 'Manage Users' }).click();
    await admin.getByLabel('E-mail').fill('new.writer@example.com');
    await admin.getByLabel('Password').fill('12345');
    await admin.getByRole('button', { name: 'Add User' }).click();
    await expect.poll(() => message().textContent()).toBe('Failed to add/update user: Password must be at least 6 characters.');
    await admin.getByLabel('Password').fill('secret12');
    await admin.getByLabel('First name').fill('Wren');
    await admin.getByLabel('Store').selectOption({ label: 'Westside Motors' });
    await admin.getByRole('button', { name: 'Add User' }).click();
    await expect.poll(() => message().textContent()).toBe('User "new.writer@example.com" added successfully!');

    const { page: newcomer } = await e2e.signedInPage('new.writer@example.com', { password: 'secret12' });
    const shell = new ShellModel(newcomer);
    expect(await shell.greeting().textContent()).toMatch(/, Wren$/);

    await admin.getByRole('tab', { name: 'Manage Stores' }).click();
    const westside = admin.getByRole('row').filter({ hasText: 'Westside Motors' });
    await expect.poll(() => westside.textContent()).toContain('new.writer@example.com');
  });

  it('shows the Authentication Issue screen to a user without a store, and “Logout Now” signs out', async () => {
    await admin.getByRole('tab', { name: 'Manage Users' }).click();
    await admin.getByLabel('E-mail').fill('no.store@example.com');
    await admin.getByLabel('Password').fill('secret12');
    await admin.getByRole('button', { name: 'Add User' }).click();
    await expect.poll(() => message().textContent()).toBe('User "no.store@example.com" added successfully!');

    const context = await e2e.newContext();
    const page = context.pages()[0] ?? (await context.newPage());
    const login = new LoginPageModel(page);
    await login.open(e2e.appUrl);
    await login.signIn('no.store@example.com', 'secret12');
    await page.getByRole('heading', { name: 'Authentication Issue' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(
      'Your account is not properly configured. Please contact your administrator to assign you to a store.',
    );
    await expect.poll(() => page.getByText(/Logging out automatically in \d+ seconds\./).count()).toBe(1);
    await e2e.screenshot(page, 'auth-issue');
    await page.getByRole('button', { name: 'Logout Now' }).click();
    await page.waitForURL(/\/login$/);
  });

  it('deletes a user and a store after confirmation', async () => {
    await admin.getByRole('button', { name: 'Delete no.store@example.com' }).click();
    await expect.poll(() => message().textContent()).toBe('User "no.store@example.com" deleted successfully!');
    await admin.getByRole('tab', { name: 'Manage Stores' }).click();
    await admin.getByRole('button', { name: 'Delete Westside Motors' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Delete Westside Motors?' });
    await dialog.getByLabel('Type Westside Motors to confirm').fill('Westside Motors');
    await dialog.getByRole('button', { name: 'Delete store' }).click();
    await expect.poll(() => message().textContent()).toBe('Store "Westside Motors" deleted successfully!');
  });

  it('says it needs a connection when offline, instead of hanging', async () => {
    // Offline on purpose: the browser logs the requests it cannot make.
    e2e.expectConsoleErrors(offlineFailures);
    await adminContext.setOffline(true);
    await expect.poll(() => admin.getByText('Needs a connection', { exact: false }).count()).toBe(1);
    expect(await admin.getByRole('button', { name: 'Add Store' }).isDisabled()).toBe(true);
    await adminContext.setOffline(false);
  });
});
