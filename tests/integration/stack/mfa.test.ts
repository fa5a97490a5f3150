/**
 * Multi-factor sign-in through the real supabase-js against the embedded Auth, on each
 * engine: enrolment, challenge, verification with a code computed by the tests' own TOTP
 * generator, the session's aal and amr, the refusals GoTrue gives (with its codes), the
 * limits on guessing, unenrolment and the admin API's factor management.
 */
import type { AuthChangeEvent, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { enrol, enrolAndVerify, sessionClaims, tokenClaims, verifyWithCode } from '../../support/mfa.ts';
import { engines } from '../../support/test-databases.ts';
import { authenticatorCode, secretBytes } from '../../support/totp.ts';
import { authCall, freshUser } from './auth-calls.ts';

/** A code for the secret that is none of the three the backend accepts now. */
function wrongCode(secret: string): string {
  const now = Date.now() / 1000;
  const valid = new Set([-30, 0, 30].map((offset) => authenticatorCode(secret, now + offset)));
  for (let n = 0; ; n += 1) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

for (const engine of engines) {
  describe(`multi-factor sign-in on ${engine}`, () => {
    let stack: TestStack;
    let clockMs = Date.now();
    beforeAll(async () => {
      // The guard's clock is the test's, so waits are moved past instead of slept through.
      stack = await startTestStack({ engine, auth: { clock: () => clockMs } });
    });
    afterAll(() => stack?.stop());

    const person = async () => {
      const user = await freshUser(stack, demo.storeA);
      return { ...user, client: await stack.signIn(user.email, user.password) };
    };
    const token = async (client: SupabaseClient) => (await client.auth.getSession()).data.session?.access_token ?? '';

    it('enrols a TOTP factor: an id, the secret, the otpauth address and its QR code; the user lists it unverified', async () => {
      const { client, email } = await person();
      const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Work phone', issuer: 'Demo Motors' });
      expect(error).toBeNull();
      expect(data).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), type: 'totp', friendly_name: 'Work phone' });
      expect(data?.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(secretBytes(data?.totp.secret ?? '')).toHaveLength(20);
      expect(data?.totp.uri).toBe(
        `otpauth://totp/Demo%20Motors:${email}?algorithm=SHA1&digits=6&issuer=Demo%20Motors&period=30&secret=${data?.totp.secret}`,
      );
      // GoTrue sends the SVG; supabase-js makes it the data: address an <img> shows.
      expect(data?.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      const listed = await client.auth.mfa.listFactors();
      expect(listed.data?.all).toEqual([expect.objectContaining({ id: data?.id, status: 'unverified', factor_type: 'totp', friendly_name: 'Work phone' })]);
      expect(listed.data?.totp).toEqual([]);
      // The issuer defaults to the site's host, as GoTrue's.
      const plain = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Tablet' });
      expect(plain.data?.totp.uri).toMatch(/^otpauth:\/\/totp\/localhost%3A4173:/);
    });

    it('verifies with the app\'s code: a new session at aal2, totp and password in its amr, the factor verified', async () => {
      const { client } = await person();
      const factor = await enrol(client);
      const before = (await client.auth.getSession()).data.session;
      const events: AuthChangeEvent[] = [];
      client.auth.onAuthStateChange((event) => void events.push(event));
      const challenge = await client.auth.mfa.challenge({ factorId: factor.factorId });
      expect(challenge.error).toBeNull();
      expect(challenge.data).toMatchObject({ id: expect.any(String), type: 'totp' });
      expect(Math.abs((challenge.data?.expires_at ?? 0) - (Date.now() / 1000 + 300))).toBeLessThan(30);

      const { data, error } = await client.auth.mfa.verify({ factorId: factor.factorId, challengeId: challenge.data?.id ?? '', code: authenticatorCode(factor.secret) });
      expect(error).toBeNull();
      expect(data?.refresh_token).not.toBe(before?.refresh_token);
      const claims = tokenClaims(data?.access_token);
      expect(claims).toMatchObject({ aal: 'aal2', session_id: tokenClaims(before?.access_token).session_id });
      expect((claims.amr as Array<{ method: string }>).map((entry) => entry.method)).toEqual(['totp', 'password']);
      expect(claims.amr).toEqual([
        { method: 'totp', timestamp: expect.any(Number) },
        { method: 'password', timestamp: expect.any(Number) },
      ]);
      expect(events).toContain('MFA_CHALLENGE_VERIFIED');
      expect(await client.auth.mfa.getAuthenticatorAssuranceLevel()).toMatchObject({
        data: { currentLevel: 'aal2', nextLevel: 'aal2', currentAuthenticationMethods: [{ method: 'totp' }, { method: 'password' }] },
      });
      expect((await client.auth.getUser()).data.user?.factors).toEqual([expect.objectContaining({ id: factor.factorId, status: 'verified' })]);
      // The session keeps its level: a refreshed token is aal2 with the same methods.
      const refreshed = await client.auth.refreshSession();
      expect(refreshed.error).toBeNull();
      expect(tokenClaims(refreshed.data.session?.access_token)).toMatchObject({ aal: 'aal2', amr: claims.amr });
    });

    it('signs in again at aal1 with aal2 next; verifying ends the person\'s other sessions still at aal1', async () => {
      const someone = await person();
      const factor = await enrolAndVerify(someone.client);
      const laptop = await stack.signIn(someone.email, someone.password);
      expect(await sessionClaims(laptop)).toMatchObject({ aal: 'aal1', amr: [{ method: 'password' }] });
      expect((await laptop.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
      const tablet = await stack.signIn(someone.email, someone.password);
      await verifyWithCode(laptop, factor);
      expect(await sessionClaims(laptop)).toMatchObject({ aal: 'aal2' });
      // As GoTrue: the tablet's aal1 session ended; the first device's aal2 session goes on.
      expect((await tablet.auth.refreshSession()).error).toMatchObject({ code: 'refresh_token_not_found' });
      expect((await someone.client.auth.refreshSession()).error).toBeNull();
    });

    it('refuses a wrong code, an expired challenge, a spent one and one from another address, as GoTrue words it', async () => {
      const { client } = await person();
      const factor = await enrol(client);
      const challenge = async () => (await client.auth.mfa.challenge({ factorId: factor.factorId })).data?.id ?? '';
      const verify = (challengeId: string, code = authenticatorCode(factor.secret)) => client.auth.mfa.verify({ factorId: factor.factorId, challengeId, code });

      const first = await challenge();
      expect((await verify(first, wrongCode(factor.secret))).error).toMatchObject({ status: 422, code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' });
      expect((await verify(first, '')).error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Code needs to be non-empty' });
      expect((await verify('f7850041-ba10-4eb3-851c-8ceb7ff8463d')).error).toMatchObject({ status: 422, code: 'mfa_factor_not_found' });

      const late = await challenge();
      await stack.database.query(`update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1`, [late]);
      expect((await verify(late)).error).toMatchObject({ status: 422, code: 'mfa_challenge_expired', message: `MFA challenge ${late} has expired, verify against another challenge or create a new challenge.` });
      // An expired challenge is deleted.
      expect((await verify(late)).error).toMatchObject({ code: 'mfa_factor_not_found' });

      const elsewhere = await authCall(stack, 'POST', `/factors/${factor.factorId}/challenge`, { token: await token(client), from: '127.0.0.2', body: {} });
      expect(elsewhere.status).toBe(200);
      const moved = await authCall(stack, 'POST', `/factors/${factor.factorId}/verify`, {
        token: await token(client),
        from: '127.0.0.3',
        body: { challenge_id: elsewhere.body.id, code: authenticatorCode(factor.secret) },
      });
      expect(moved).toMatchObject({ status: 422, body: { code: 'mfa_ip_address_mismatch', message: 'Challenge and verify IP addresses mismatch.' } });

      const good = await challenge();
      expect((await verify(good)).error).toBeNull();
      expect((await verify(good)).error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });
      expect((await client.auth.mfa.listFactors()).data?.totp).toHaveLength(1);
    });

    it('slows guessing: after five checks a factor must wait, from any address, and the right code works once the wait is over', async () => {
      const { client } = await person();
      const factor = await enrolAndVerify(client);
      const bearer = await token(client);
      const attempt = async (from: string, code: string) => {
        const challenge = await authCall(stack, 'POST', `/factors/${factor.factorId}/challenge`, { token: bearer, from, body: {} });
        return authCall(stack, 'POST', `/factors/${factor.factorId}/verify`, { token: bearer, from, body: { challenge_id: challenge.body.id, code } });
      };
      const wrong = wrongCode(factor.secret);
      for (let n = 0; n < 5; n += 1) expect((await attempt(`127.0.0.${10 + n}`, wrong)).body.code).toBe('mfa_verification_failed');
      const held = await attempt('127.0.0.20', authenticatorCode(factor.secret));
      expect(held).toMatchObject({ status: 429, body: { code: 'over_request_rate_limit' } });
      expect(held.headers['retry-after']).toBe('30');
      expect(String(held.body.message)).toMatch(/Too many wrong codes for this authenticator/);
      clockMs += 30_000;
      // One more wrong code doubles the wait.
      expect((await attempt('127.0.0.21', wrong)).body.code).toBe('mfa_verification_failed');
      expect((await attempt('127.0.0.21', authenticatorCode(factor.secret))).headers['retry-after']).toBe('60');
      clockMs += 60_000;
      expect((await attempt('127.0.0.22', authenticatorCode(factor.secret))).status).toBe(200);
      // A right code forgets the count.
      expect((await attempt('127.0.0.22', wrong)).body.code).toBe('mfa_verification_failed');
    });

    it('limits challenges from one address to a burst of 30, then 15 a minute', async () => {
      const { client } = await person();
      const factor = await enrol(client);
      const bearer = await token(client);
      const challenge = () => authCall(stack, 'POST', `/factors/${factor.factorId}/challenge`, { token: bearer, from: '127.0.0.40', body: {} });
      for (let n = 0; n < 30; n += 1) expect((await challenge()).status).toBe(200);
      const refused = await challenge();
      expect(refused).toMatchObject({ status: 429, body: { code: 'over_request_rate_limit', message: 'Request rate limit reached' } });
      expect(refused.headers['retry-after']).toBe('4');
      clockMs += 4_000;
      expect((await challenge()).status).toBe(200);
      // Another address is not held back.
      expect((await authCall(stack, 'POST', `/factors/${factor.factorId}/challenge`, { token: bearer, from: '127.0.0.41', body: {} })).status).toBe(200);
    });

    it('unenrols: a verified factor only from an aal2 session, after which the session is back at aal1', async () => {
      const someone = await person();
      const factor = await enrolAndVerify(someone.client);
      const passwordOnly = await stack.signIn(someone.email, someone.password);
      expect((await passwordOnly.auth.mfa.unenroll({ factorId: factor.factorId })).error).toMatchObject({
        status: 422,
        code: 'insufficient_aal',
        message: 'AAL2 required to unenroll verified factor',
      });
      const removed = await someone.client.auth.mfa.unenroll({ factorId: factor.factorId });
      expect(removed).toMatchObject({ error: null, data: { id: factor.factorId } });
      expect((await someone.client.auth.mfa.listFactors()).data?.all).toEqual([]);
      const refreshed = await someone.client.auth.refreshSession();
      expect(tokenClaims(refreshed.data.session?.access_token)).toMatchObject({ aal: 'aal1', amr: [{ method: 'password' }] });
      expect((await someone.client.auth.getUser()).data.user?.factors).toBeUndefined();
      // An unverified factor goes from an aal1 session.
      const pending = await enrol(passwordOnly, 'Spare');
      expect((await passwordOnly.auth.mfa.unenroll({ factorId: pending.factorId })).error).toBeNull();
    });

    it('refuses at enrolment what GoTrue refuses: a second factor at aal1, a taken name, phone and WebAuthn, an unknown type, no session', async () => {
      const someone = await person();
      await enrolAndVerify(someone.client, 'Phone');
      expect((await someone.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' })).error).toMatchObject({
        status: 422,
        code: 'mfa_factor_name_conflict',
        message: 'A factor with the friendly name "Phone" for this user already exists',
      });
      expect((await someone.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Backup phone' })).error).toBeNull();
      const passwordOnly = await stack.signIn(someone.email, someone.password);
      expect((await passwordOnly.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Intruder' })).error).toMatchObject({
        status: 403,
        code: 'insufficient_aal',
        message: 'AAL2 required to enroll a new factor',
      });
      expect((await someone.client.auth.mfa.enroll({ factorType: 'phone', phone: '+15555550100' })).error).toMatchObject({
        status: 422,
        code: 'mfa_phone_enroll_not_enabled',
        message: 'MFA enroll is disabled for Phone',
      });
      expect((await someone.client.auth.mfa.webauthn.enroll({ friendlyName: 'Key' })).error).toMatchObject({
        status: 422,
        code: 'mfa_webauthn_enroll_not_enabled',
        message: 'MFA enroll is disabled for WebAuthn',
      });
      const bearer = await token(someone.client);
      expect(await authCall(stack, 'POST', '/factors', { token: bearer, body: { factor_type: 'sms' } })).toMatchObject({
        status: 400,
        body: { code: 'validation_failed', message: 'factor_type needs to be totp, phone, or webauthn' },
      });
      expect(await authCall(stack, 'POST', '/factors', { token: bearer, body: { factor_type: 'totp', friendly_name: 'x'.repeat(101) } })).toMatchObject({
        status: 400,
        body: { code: 'validation_failed' },
      });
      // Signed out, supabase-js sends the anon key, which names nobody; without any token GoTrue asks for one.
      expect((await stack.anon().auth.mfa.enroll({ factorType: 'totp' })).error).toMatchObject({ status: 403, code: 'bad_jwt' });
      expect(await authCall(stack, 'POST', '/factors', { body: { factor_type: 'totp' } })).toMatchObject({
        status: 401,
        body: { code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' },
      });
    });

    it('cleans up as GoTrue: enrolments never verified go after five minutes, and verifying deletes the others left unverified', async () => {
      const { client } = await person();
      const abandoned = await enrol(client, 'Abandoned');
      await stack.database.query(`update auth.mfa_factors set created_at = now() - interval '301 seconds' where id = $1`, [abandoned.factorId]);
      const other = await enrol(client, 'Other');
      const kept = await enrol(client, 'Kept');
      expect((await client.auth.mfa.listFactors()).data?.all.map((f) => f.friendly_name)).toEqual(['Other', 'Kept']);
      await verifyWithCode(client, kept);
      expect((await client.auth.mfa.listFactors()).data?.all).toEqual([expect.objectContaining({ id: kept.factorId, status: 'verified' })]);
      expect(other.factorId).not.toBe(kept.factorId);
    });

    it('answers 404 for a factor that is not the caller\'s, as GoTrue', async () => {
      const owner = await person();
      const stranger = await person();
      const factor = await enrol(owner.client);
      expect((await stranger.client.auth.mfa.challenge({ factorId: factor.factorId })).error).toMatchObject({
        status: 404,
        code: 'mfa_factor_not_found',
        message: 'Factor not found',
      });
      expect((await stranger.client.auth.mfa.unenroll({ factorId: 'not-a-uuid' })).error).toMatchObject({
        status: 404,
        code: 'validation_failed',
        message: 'factor_id must be an UUID',
      });
    });

    it('lets the admin API list, rename and remove a person\'s factors; removal brings their sessions back to aal1', async () => {
      const someone = await person();
      const factor = await enrolAndVerify(someone.client, 'Old phone');
      const admin = stack.service().auth.admin.mfa;
      const listed = await admin.listFactors({ userId: someone.id });
      expect(listed).toMatchObject({ error: null, data: { factors: [{ id: factor.factorId, status: 'verified', factor_type: 'totp', friendly_name: 'Old phone' }] } });
      expect(JSON.stringify(listed.data)).not.toContain(factor.secret);
      const renamed = await authCall(stack, 'PUT', `/admin/users/${someone.id}/factors/${factor.factorId}`, {
        token: stack.keys.serviceRoleKey,
        body: { friendly_name: 'Lost phone' },
      });
      expect(renamed).toMatchObject({ status: 200, body: { id: factor.factorId, friendly_name: 'Lost phone' } });
      // Only the service role may.
      expect((await someone.client.auth.admin.mfa.listFactors({ userId: someone.id })).error).toMatchObject({ status: 403, code: 'not_admin' });

      const removed = await admin.deleteFactor({ userId: someone.id, id: factor.factorId });
      // auth-js 2.109 wraps this answer twice: the removed factor is data.data.
      expect(removed).toMatchObject({ error: null, data: { data: { id: factor.factorId, status: 'verified' } } });
      expect((await admin.listFactors({ userId: someone.id })).data?.factors).toEqual([]);
      expect((await admin.deleteFactor({ userId: someone.id, id: factor.factorId })).error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
      expect((await admin.listFactors({ userId: 'aaaaaaaa-0000-4000-8000-00000000ffff' })).error).toMatchObject({ status: 404, code: 'user_not_found' });
      const refreshed = await someone.client.auth.refreshSession();
      expect(tokenClaims(refreshed.data.session?.access_token)).toMatchObject({ aal: 'aal1' });
      expect((await someone.client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
    });

    it('reads a given token\'s level and the user\'s factors in getAuthenticatorAssuranceLevel(jwt)', async () => {
      const someone = await person();
      const before = await token(someone.client);
      expect((await someone.client.auth.mfa.getAuthenticatorAssuranceLevel(before)).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
      await enrolAndVerify(someone.client);
      const after = await token(someone.client);
      expect((await someone.client.auth.mfa.getAuthenticatorAssuranceLevel(after)).data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
      const other = await stack.signIn(someone.email, someone.password);
      expect((await other.auth.mfa.getAuthenticatorAssuranceLevel(await token(other))).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    });
  });
}
