/**
 * Anonymous sign-in as GoTrue answers it: off by default (422 anonymous_provider_disabled),
 * and when turned on (with sign-up allowed, as GoTrue requires) a new user without an
 * e-mail whose token and user say is_anonymous, who can read no store and enrol no factor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { sessionClaims } from '../../support/mfa.ts';
import { engines } from '../../support/test-databases.ts';
import { authCall } from './auth-calls.ts';

for (const engine of engines) {
  describe(`anonymous sign-in, off by default, on ${engine}`, () => {
    let stack: TestStack;
    beforeAll(async () => {
      stack = await startTestStack({ engine });
    });
    afterAll(() => stack?.stop());

    it('is refused with GoTrue\'s anonymous_provider_disabled, and the settings say it is off', async () => {
      const { data, error } = await stack.anon().auth.signInAnonymously();
      expect(data.session).toBeNull();
      expect(error).toMatchObject({ status: 422, code: 'anonymous_provider_disabled', message: 'Anonymous sign-ins are disabled' });
      expect((await authCall(stack, 'GET', '/settings')).body).toMatchObject({ external: { email: true, anonymous_users: false } });
      const { rows } = await stack.database.query<{ n: number }>('select count(*)::int as n from auth.users where is_anonymous');
      expect(rows[0]?.n).toBe(0);
    });
  });

  describe(`anonymous sign-in, turned on, on ${engine}`, () => {
    let stack: TestStack;
    let signupOff: TestStack;
    beforeAll(async () => {
      stack = await startTestStack({ engine, allowSignup: true, auth: { allowAnonymous: true } });
      signupOff = await startTestStack({ engine, auth: { allowAnonymous: true } });
    });
    afterAll(async () => {
      await stack?.stop();
      await signupOff?.stop();
    });

    it('signs in a new anonymous user: is_anonymous in the token and the user, no e-mail, the anonymous method', async () => {
      const client = stack.anon();
      const { data, error } = await client.auth.signInAnonymously({ options: { data: { shift: 'morning' } } });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ is_anonymous: true, email: '', app_metadata: {}, user_metadata: { shift: 'morning' }, identities: [] });
      expect(await sessionClaims(client)).toMatchObject({ is_anonymous: true, role: 'authenticated', aal: 'aal1', amr: [{ method: 'anonymous' }] });
      expect((await client.auth.getUser()).data.user?.is_anonymous).toBe(true);
      // No store in app_metadata: row-level security shows nothing.
      expect((await client.from('stores').select('id')).data).toEqual([]);
      expect((await client.auth.mfa.enroll({ factorType: 'totp' })).error).toMatchObject({
        status: 403,
        code: 'no_authorization',
        message: 'Anonymous user not allowed to perform these actions',
      });
      expect((await authCall(stack, 'GET', '/settings')).body).toMatchObject({ external: { anonymous_users: true } });
    });

    it('limits one address to 30 anonymous sign-ins an hour', async () => {
      const from = '127.0.0.50';
      for (let n = 0; n < 30; n += 1) expect((await authCall(stack, 'POST', '/signup', { from, body: {} })).status).toBe(200);
      const refused = await authCall(stack, 'POST', '/signup', { from, body: {} });
      expect(refused).toMatchObject({ status: 429, body: { code: 'over_request_rate_limit' } });
      expect((await authCall(stack, 'POST', '/signup', { from: '127.0.0.51', body: {} })).status).toBe(200);
    });

    it('still needs sign-up allowed, as GoTrue', async () => {
      expect((await signupOff.anon().auth.signInAnonymously()).error).toMatchObject({ status: 422, code: 'signup_disabled' });
    });
  });
}
