import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import { authenticatorCode } from '../support/totp.ts';
import { refusedWith } from './support/browser.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { LoginPageModel, ShellModel } from './support/pages.ts';

/**
 * A passkey as an admin's second step, in Chromium with the DevTools protocol's virtual
 * authenticator standing in for the device's (a platform authenticator that verifies
 * the person): the admin adds a passkey in Settings, Authenticator; signed out and in
 * again with the password, the app asks for the key ("Use your security key") and opens
 * once the browser's signature is accepted; the admin actions, which need the second
 * factor, then work. A key of the same name left half set up earlier gives way to the
 * new one. With an authenticator app as well, either one opens the app. A browser without
 * WebAuthn is told so before it tries. The page is at http://localhost:<port>, a secure
 * context whose host is the relying party.
 */
describe('signing in with a passkey', () => {
  let e2e: E2E;
  let page: Page;
  let shell: ShellModel;
  let cdp: CDPSession;
  let authenticatorId = '';
  type VirtualCredential = { credentialId: string; rpId: string; signCount: number; isResidentCredential: boolean };
  const credentials = async () => ((await cdp.send('WebAuthn.getCredentials', { authenticatorId })) as { credentials: VirtualCredential[] }).credentials;

  beforeAll(async () => {
    e2e = await startE2E({ webauthn: true });
    const context = await e2e.newContext();
    page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1440, height: 900 });
    cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = (await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })) as { authenticatorId: string });
    const login = new LoginPageModel(page);
    await login.open(e2e.appUrl);
    await login.signIn('admin@example.com');
    shell = new ShellModel(page);
    await shell.waitForSignedIn();
    page.on('dialog', (dialog) => void dialog.accept());
  });
  afterAll(() => e2e?.close());

  const factorsOfAdmin = async () =>
    (
      await e2e.stack.database.query<{ status: string; id: string | null; type: string }>(
        `select f.status::text, f.web_authn_credential ->> 'id' as id, f.factor_type::text as type
         from auth.mfa_factors f join auth.users u on u.id = f.user_id where u.email = 'admin@example.com' order by f.created_at`,
      )
    ).rows;

  it('adds a passkey in Settings: the browser makes a credential for this site and the server keeps it', async () => {
    e2e.expectConsoleErrors(refusedWith(422));
    expect(new URL(e2e.appUrl).hostname).toBe('localhost');
    await page.goto(`${e2e.appUrl}/settings?tab=authenticator`);
    await page.getByRole('heading', { name: 'Security key or passkey' }).waitFor();
    await page.getByLabel('Name of the new security key').fill('Admin passkey');
    // A key of that name left half set up (a page closed during the browser's prompt) does not stand in the way.
    await e2e.stack.database.query(
      `with f as (insert into auth.mfa_factors (user_id, friendly_name, factor_type, status) values ($1, 'Admin passkey', 'webauthn', 'unverified') returning id)
       insert into auth.mfa_challenges (factor_id, ip_address) select id, '127.0.0.1' from f`,
      [demo.adminId],
    );
    expect(await factorsOfAdmin()).toEqual([{ status: 'unverified', id: null, type: 'webauthn' }]);

    // An authenticator that does not report the person's touch: refused, and nothing is left half set up.
    await cdp.send('WebAuthn.setResponseOverrideBits', { authenticatorId, isBadUP: true });
    await page.getByRole('button', { name: 'Use a security key or passkey' }).click();
    await page
      .getByText(
        "Could not add the security key: The server did not accept the security key: the security key did not register the person's presence (a touch). Try again.",
      )
      .waitFor();
    await expect.poll(factorsOfAdmin).toEqual([]);
    await cdp.send('WebAuthn.setResponseOverrideBits', { authenticatorId });
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });

    await page.getByRole('button', { name: 'Use a security key or passkey' }).click();
    await page.getByText('Security key added. Signing in can now ask you to touch it (or confirm the passkey) after your password.').waitFor();
    await page.getByRole('list', { name: 'Security keys' }).getByText(/^Admin passkey \(added \d{4}-\d{2}-\d{2}\)/).waitFor();
    await e2e.screenshot(page, 'security-key-added');

    const made = await credentials();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ rpId: 'localhost' });
    // The browser's credential id (base64) is the one the server registered.
    expect(await factorsOfAdmin()).toEqual([{ status: 'verified', id: Buffer.from(made[0]?.credentialId ?? '', 'base64').toString('base64'), type: 'webauthn' }]);
  });

  it('asks for the key after the password, opens once it is used, and the admin actions then work', async () => {
    await shell.logout();
    const login = new LoginPageModel(page);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await login.signIn('admin@example.com');
    await page.getByRole('heading', { name: 'Use your security key' }).waitFor();
    expect(await page.locator('nav#sidebar').count()).toBe(0);
    expect(await page.getByLabel('Code', { exact: true }).count()).toBe(0);
    await e2e.screenshot(page, 'security-key-sign-in');
    const before = (await credentials())[0]?.signCount ?? 0;

    // A signature that is not the key's is refused, and the app stays closed.
    e2e.expectConsoleErrors(refusedWith(422));
    await cdp.send('WebAuthn.setResponseOverrideBits', { authenticatorId, isBogusSignature: true });
    await page.getByRole('button', { name: 'Use your security key' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The server did not accept the security key: the signature does not match the security key. Try again.');
    expect(await page.locator('nav#sidebar').count()).toBe(0);
    await cdp.send('WebAuthn.setResponseOverrideBits', { authenticatorId });

    await page.getByRole('button', { name: 'Use your security key' }).click();
    await shell.waitForSignedIn();
    expect((await credentials())[0]?.signCount).toBeGreaterThan(before);

    await shell.go('Admin');
    const users = page.getByRole('table', { name: 'Users' });
    await users.waitFor();
    const adminRow = users.getByRole('row').filter({ hasText: 'admin@example.com' });
    await expect.poll(() => adminRow.textContent()).toContain('Yes (Admin passkey)');
    // Changing the group's security setting is an admin action the server allows only at aal2.
    await page.getByRole('tab', { name: 'Security' }).click();
    const required = page.getByRole('checkbox', { name: 'Administrators must use an authenticator app' });
    await expect.poll(() => required.isChecked()).toBe(false);
    await required.click();
    await page.getByText('Administrators must now use an authenticator app.').waitFor();
    const { rows } = await e2e.stack.database.query<{ on: boolean }>('select admins_need_mfa as on from private.security_settings');
    expect(rows).toEqual([{ on: true }]);
    const { rows: sessions } = await e2e.stack.database.query<{ aal: string; methods: string[] }>(
      `select s.aal::text, array_agg(c.authentication_method order by c.authentication_method) as methods
       from auth.sessions s join auth.users u on u.id = s.user_id join auth.mfa_amr_claims c on c.session_id = s.id
       where u.email = 'admin@example.com' group by s.id, s.aal`,
    );
    expect(sessions).toEqual([{ aal: 'aal2', methods: ['mfa/webauthn', 'password'] }]);
  });

  it('with an authenticator app as well, asks for the code and offers the key: either opens the app', async () => {
    await shell.go('System');
    await page.getByRole('tab', { name: 'Authenticator' }).click();
    await page.getByLabel('Name of the new authenticator').fill('Admin phone');
    await page.getByRole('button', { name: 'Set up authenticator' }).click();
    const secret = ((await page.locator('code.secret').textContent()) ?? '').replace(/\s/g, '');
    await page.getByLabel('Code from the app').fill(authenticatorCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Authenticator added. From now on signing in asks for your password and a code from it.').waitFor();

    await shell.logout();
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await new LoginPageModel(page).signIn('admin@example.com');
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await page.getByText('Or use your security key or passkey instead of the code:').waitFor();
    await e2e.screenshot(page, 'security-key-or-code');
    await page.getByRole('button', { name: 'Use your security key' }).click();
    await shell.waitForSignedIn();
    await shell.go('Admin');
    await page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: 'admin@example.com' }).waitFor();
    await expect.poll(() => page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: 'admin@example.com' }).textContent()).toContain('Yes (Admin passkey, Admin phone)');
  });

  it('a browser without WebAuthn says so in Settings before anything is tried, and nothing is enrolled', async () => {
    const { page: plain, context } = await e2e.signedInPage('manager@example.com');
    // A browser that has no WebAuthn: the page loses PublicKeyCredential before the app starts.
    await context.addInitScript(() => Reflect.deleteProperty(window, 'PublicKeyCredential'));
    await plain.goto(`${e2e.appUrl}/settings?tab=authenticator`);
    await plain.getByRole('heading', { name: 'Security key or passkey' }).waitFor();
    expect(await plain.evaluate(() => 'PublicKeyCredential' in window)).toBe(false);
    await plain.getByText('This browser cannot use security keys or passkeys. Use a current Chrome, Edge, Firefox or Safari, or an authenticator app.').waitFor();
    expect(await plain.getByRole('button', { name: 'Use a security key or passkey' }).isDisabled()).toBe(true);
    const { rows } = await e2e.stack.database.query('select 1 from auth.mfa_factors where user_id = $1', [demo.managerId]);
    expect(rows).toEqual([]);
  });
});
