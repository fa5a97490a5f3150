import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../../support/demo.ts';
import { engines } from '../../../support/test-databases.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { startConformanceStack } from './conformance-stack.ts';
import { follow, lastMail, mails, tokenHashOf } from './mailbox.ts';

// GoTrue's e-mail flows through the unmodified auth-js: generateLink for every link type,
// password recovery and invitations by way of the mailbox, e-mail change confirmed
// from both addresses. Token hashes are recomputed here (keyed SHA-224 of address and
// code), never taken from the code under test.
const site = 'http://localhost:4173/';

for (const engine of engines) {
  describe(`GoTrue e-mail links on ${engine}`, () => {
    let stack: ConformanceStack;
    let admin: SupabaseClient;

    beforeAll(async () => {
      stack = await startConformanceStack(engine, { allowSignup: true });
      admin = stack.service();
    });
    afterAll(() => stack?.stop());

    it('generates a signup link whose token is the hash of address and code, and which confirms the user', async () => {
      const email = 'new.signup@example.com';
      const { data, error } = await admin.auth.admin.generateLink({ type: 'signup', email, password: 'correct-horse-1' });
      expect(error).toBeNull();
      const { properties, user } = data;
      expect(properties?.verification_type).toBe('signup');
      expect(properties?.email_otp).toMatch(/^\d{6}$/);
      expect(properties?.hashed_token).toBe(tokenHashOf(stack.keys.jwtSecret, email, properties?.email_otp ?? ''));
      expect(properties?.action_link).toBe(
        `${stack.url}/auth/v1/verify?token=${properties?.hashed_token}&type=signup&redirect_to=${encodeURIComponent(site)}`,
      );
      expect(user).toMatchObject({ email, email_confirmed_at: null });
      const followed = await follow(properties?.action_link ?? '');
      expect(followed.status).toBe(303);
      expect(`${followed.location.origin}${followed.location.pathname}`).toBe(site);
      expect(followed.fragment.get('type')).toBe('signup');
      expect(followed.fragment.get('refresh_token')).toBeTruthy();
      const [row] = await stack.sql<{ confirmed: boolean }>('select email_confirmed_at is not null as confirmed from auth.users where email = $1', [email]);
      expect(row?.confirmed).toBe(true);
      // A link works once.
      const again = await follow(properties?.action_link ?? '');
      expect(again.fragment.get('error_code')).toBe('otp_expired');
      expect(again.fragment.get('error_description')).toBe('Email link is invalid or has expired');
      // A link without its token is refused outright, not redirected.
      const incomplete = await fetch(`${stack.url}/auth/v1/verify?type=signup`, { redirect: 'manual', headers: { 'X-Supabase-Api-Version': '2024-01-01' } });
      expect([incomplete.status, await incomplete.json()]).toEqual([400, { code: 'validation_failed', message: 'Verify requires a token or a token hash' }]);
    });

    it('generates magic-link and recovery links that sign in with the code or the hash', async () => {
      const magic = await admin.auth.admin.generateLink({ type: 'magiclink', email: 'manager@example.com' });
      expect(magic.data.properties?.verification_type).toBe('magiclink');
      const client = stack.anon();
      const signedIn = await client.auth.verifyOtp({ email: 'manager@example.com', token: magic.data.properties?.email_otp ?? '', type: 'magiclink' });
      expect(signedIn.error).toBeNull();
      expect(signedIn.data.user?.email).toBe('manager@example.com');
      const recovery = await admin.auth.admin.generateLink({ type: 'recovery', email: 'manager@example.com' });
      const byHash = await stack.anon().auth.verifyOtp({ token_hash: recovery.data.properties?.hashed_token ?? '', type: 'recovery' });
      expect(byHash.data.session?.access_token).toBeTruthy();
      const unknownMagic = await admin.auth.admin.generateLink({ type: 'magiclink', email: 'stranger@example.com' });
      expect(unknownMagic.data.properties?.verification_type).toBe('signup');
      const unknownRecovery = await admin.auth.admin.generateLink({ type: 'recovery', email: 'nobody@example.com' });
      expect(unknownRecovery.error).toMatchObject({ status: 404, code: 'user_not_found', message: 'User with this email not found' });
      const bogus = await admin.auth.admin.generateLink({ type: 'bogus' as never, email: 'manager@example.com' });
      expect(bogus.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Invalid email action link type requested: bogus' });
    });

    it('generates e-mail change links for the current and the new address', async () => {
      const current = await admin.auth.admin.generateLink({ type: 'email_change_current', email: 'other@example.com', newEmail: 'other.new@example.com' });
      const next = await admin.auth.admin.generateLink({ type: 'email_change_new', email: 'other@example.com', newEmail: 'other.new@example.com' });
      expect(current.data.properties?.hashed_token).toBe(tokenHashOf(stack.keys.jwtSecret, 'other@example.com', current.data.properties?.email_otp ?? ''));
      expect(next.data.properties?.hashed_token).toBe(tokenHashOf(stack.keys.jwtSecret, 'other.new@example.com', next.data.properties?.email_otp ?? ''));
      const taken = await admin.auth.admin.generateLink({ type: 'email_change_new', email: 'other@example.com', newEmail: 'manager@example.com' });
      expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });
    });

    it('recovers a password: /recover, the mailbox link, the session in the redirect, PUT /user', async () => {
      const email = 'forgetful@example.com';
      expect((await admin.auth.admin.createUser({ email, password: 'forgotten-1', email_confirm: true })).error).toBeNull();
      const client = stack.anon();
      const asked = await client.auth.resetPasswordForEmail(email, { redirectTo: `${site}reset` });
      expect(asked).toMatchObject({ error: null, data: {} });
      const mail = await lastMail(stack.mailboxFile, email, 'recovery');
      expect(mail.subject).toBe('Reset Your Password');
      const followed = await follow(mail.action_link);
      expect(followed.location.toString().startsWith(`${site}reset#`)).toBe(true);
      expect(followed.fragment.get('type')).toBe('recovery');
      await client.auth.setSession({ access_token: followed.fragment.get('access_token') ?? '', refresh_token: followed.fragment.get('refresh_token') ?? '' });
      const changed = await client.auth.updateUser({ password: 'a-new-password-42' });
      expect(changed.error).toBeNull();
      await expect(stack.signIn(email, 'a-new-password-42')).resolves.toBeTruthy();
      // At most one recovery e-mail a minute (a generated link counts too); an unknown address learns nothing.
      const tooSoon = await client.auth.resetPasswordForEmail(email);
      expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
      const before = (await mails(stack.mailboxFile)).length;
      expect(await client.auth.resetPasswordForEmail('nobody@example.com')).toMatchObject({ error: null });
      expect((await mails(stack.mailboxFile)).length).toBe(before);
    });

    it('invites a user, who signs in with the code and sets a password', async () => {
      const invited = await admin.auth.admin.inviteUserByEmail('invitee@example.com', { data: { firstName: 'Ivy' } });
      expect(invited.error).toBeNull();
      expect(invited.data.user).toMatchObject({ email: 'invitee@example.com', user_metadata: { firstName: 'Ivy' } });
      expect(invited.data.user?.invited_at).toBeTruthy();
      const mail = await lastMail(stack.mailboxFile, 'invitee@example.com', 'invite');
      const client = stack.anon();
      const verified = await client.auth.verifyOtp({ email: 'invitee@example.com', token: mail.email_otp, type: 'invite' });
      expect(verified.error).toBeNull();
      expect(await client.auth.updateUser({ password: 'invited-and-set-1' })).toMatchObject({ error: null });
      await expect(stack.signIn('invitee@example.com', 'invited-and-set-1')).resolves.toBeTruthy();
      const again = await admin.auth.admin.inviteUserByEmail('invitee@example.com');
      expect(again.error).toMatchObject({ status: 422, code: 'email_exists', message: 'A user with this email address has already been registered' });
    });

    it('changes an e-mail address only once both addresses confirmed it', async () => {
      const created = await admin.auth.admin.createUser({ email: 'mover@example.com', password: 'moving-day-77', email_confirm: true });
      expect(created.error).toBeNull();
      const client = await stack.signIn('mover@example.com', 'moving-day-77');
      const asked = await client.auth.updateUser({ email: 'Moved@Example.com' });
      expect(asked.error).toBeNull();
      expect(asked.data.user).toMatchObject({ email: 'mover@example.com', new_email: 'moved@example.com' });
      const toOld = await lastMail(stack.mailboxFile, 'mover@example.com', 'email_change_current');
      const toNew = await lastMail(stack.mailboxFile, 'moved@example.com', 'email_change_new');
      const first = await fetch(`${stack.url}/auth/v1/verify`, {
        method: 'POST',
        headers: { apikey: stack.keys.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'email_change', token_hash: tokenHashOf(stack.keys.jwtSecret, 'moved@example.com', toNew.email_otp) }),
      });
      expect(await first.json()).toEqual({ msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email', code: '200' });
      expect(await stack.sql('select email from auth.users where id = $1', [created.data.user?.id])).toEqual([{ email: 'mover@example.com' }]);
      const second = await follow(toOld.action_link);
      expect(second.fragment.get('access_token')).toBeTruthy();
      expect(await stack.sql('select email from auth.users where id = $1', [created.data.user?.id])).toEqual([{ email: 'moved@example.com' }]);
      await expect(stack.signIn('moved@example.com', 'moving-day-77')).resolves.toBeTruthy();
      const identities = await (await stack.signIn('moved@example.com', 'moving-day-77')).auth.getUserIdentities();
      expect(identities.data?.identities.map((i) => [i.provider, i.identity_data?.email])).toEqual([['email', 'moved@example.com']]);
    });

    it('validates a new address on PUT /user: its format, and that nobody has it', async () => {
      const client = await stack.signIn('admin@example.com');
      const malformed = await client.auth.updateUser({ email: 'xx:;x@x.x' });
      expect(malformed.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Unable to validate email address: invalid format' });
      const taken = await client.auth.updateUser({ email: 'other@example.com' });
      expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });
      const same = await client.auth.updateUser({ password: demo.password });
      expect(same.error).toMatchObject({ status: 422, code: 'same_password', message: 'New password should be different from the old password.' });
    });
  });
}
