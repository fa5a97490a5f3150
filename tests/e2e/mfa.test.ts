import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticatorCode } from '../support/totp.ts';
import { refusedWith } from './support/browser.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { LoginPageModel, ShellModel } from './support/pages.ts';

/**
 * The multi-factor journey of an admin in Chromium, with codes computed by the test's own
 * TOTP generator: the group requires an authenticator of admins, so the admin actions are
 * refused with the password alone (aal1); the admin sets one up in Settings from the QR
 * code's key, and the admin screen (the group's setting too) then works (aal2); signed out and in again, the app
 * asks for the code after the password, refuses a wrong one, and opens with the right one.
 */
describe('signing in with an authenticator app', () => {
  let e2e: E2E;
  let page: Page;
  let shell: ShellModel;
  let secret = '';
  const usersTable = () => page.getByRole('table', { name: 'Users' });

  beforeAll(async () => {
    e2e = await startE2E();
    await e2e.stack.database.query(
      `insert into private.security_settings (admins_need_mfa) values (true)
       on conflict (id) do update set admins_need_mfa = true`,
    );
    ({ page } = await e2e.signedInPage('admin@example.com'));
    shell = new ShellModel(page);
    page.on('dialog', (dialog) => void dialog.accept());
  });
  afterAll(() => e2e?.close());

  it('refuses the admin actions to an admin without an authenticator, and leads to setting one up', async () => {
    e2e.expectConsoleErrors(refusedWith(403));
    await shell.go('Admin');
    const refusal = page.getByRole('alert').filter({ hasText: 'Failed to fetch data' });
    await expect.poll(() => refusal.textContent()).toBe(
      'Failed to fetch data: Managing users needs an authenticator app: administrators must set one up first (Settings, Authenticator).',
    );
    expect(await usersTable().count()).toBe(0);
    await page.getByRole('link', { name: 'Set up an authenticator app' }).click();
    await page.getByRole('tab', { name: 'Authenticator', selected: true }).waitFor();
    await page.getByText('Administrators must use an authenticator app: set one up here before using the admin actions.').waitFor();
  });

  it('sets up an authenticator from the QR code\'s key and a first code; the admin screen then works', async () => {
    await page.getByLabel('Name of the new authenticator').fill('Admin phone');
    await page.getByRole('button', { name: 'Set up authenticator' }).click();
    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.waitFor();
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 100)).toBe(true);
    secret = ((await page.locator('code.secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await e2e.screenshot(page, 'authenticator-setup');
    await page.getByLabel('Code from the app').fill(authenticatorCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Authenticator added. From now on signing in asks for your password and a code from it.').waitFor();
    await page.getByText(/^Admin phone \(added \d{4}-\d{2}-\d{2}\)/).waitFor();

    await shell.go('Admin');
    await usersTable().waitFor();
    const adminRow = usersTable().getByRole('row').filter({ hasText: 'admin@example.com' });
    await expect.poll(() => adminRow.textContent()).toContain('Yes (Admin phone)');

    await page.getByRole('tab', { name: 'Security' }).click();
    const required = page.getByRole('checkbox', { name: 'Administrators must use an authenticator app' });
    await expect.poll(() => required.isChecked()).toBe(true);
    await required.click();
    await page.getByText('Administrators may now sign in with a password alone.').waitFor();
    const { rows } = await e2e.stack.database.query<{ on: boolean }>('select admins_need_mfa as on from private.security_settings');
    expect(rows).toEqual([{ on: false }]);
    await required.click();
    await page.getByText('Administrators must now use an authenticator app.').waitFor();
  });

  it('asks for the code after the password, refuses a wrong one, and opens with the right one', async () => {
    e2e.expectConsoleErrors(refusedWith(422));
    await shell.logout();
    const login = new LoginPageModel(page);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await login.signIn('admin@example.com');
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    expect(await page.locator('nav#sidebar').count()).toBe(0);
    await e2e.screenshot(page, 'authenticator-code');

    const now = Date.now() / 1000;
    const current = new Set([-30, 0, 30].map((offset) => authenticatorCode(secret, now + offset)));
    const wrong = ['000000', '111111', '222222'].find((code) => !current.has(code)) ?? '333333';
    await page.getByLabel('Code', { exact: true }).fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('That code is not right. Enter the six digits your authenticator app shows now.');

    await page.getByLabel('Code', { exact: true }).fill(authenticatorCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await shell.waitForSignedIn();
    await shell.go('Admin');
    await usersTable().waitFor();
    expect(await usersTable().locator('tbody tr').count()).toBe(3);
  });
});
