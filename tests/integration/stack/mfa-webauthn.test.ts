/**
 * Security keys and passkeys (WebAuthn factors) through the real supabase-js against the
 * embedded Auth, on each engine, with a software security key written in the tests (an
 * EC P-256 or RSA key pair from node:crypto; clientDataJSON, authenticator data,
 * attestation objects and assertions built by hand): enrolment, registration (`none` and
 * `packed` self-attestation) to aal2, signing in with the key to aal2, the refusals (a
 * wrong origin, challenge or signature, a replayed or expired challenge, a counter gone
 * back, a malformed answer), the limits on attempts, unenrolment, the admin API, and a
 * person with both an authenticator app and a key.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { enrolAndVerify, sessionClaims, tokenClaims, verifyWithCode } from '../../support/mfa.ts';
import { SoftwareAuthenticator } from '../../support/software-authenticator.ts';
import { engines } from '../../support/test-databases.ts';
import { answer, appOrigin, challengeKey, registerKey, relyingParty, signInWithKey } from '../../support/webauthn.ts';
import { authCall, freshUser } from './auth-calls.ts';

type StoredFactor = { status: string; credential: { id: string; publicKey: string; authenticator: { signCount: number } } | null; aaguid: string | null };

for (const engine of engines) {
  describe(`security keys and passkeys as a second factor, on ${engine}`, () => {
    let stack: TestStack;
    let clockMs = Date.now();
    beforeAll(async () => {
      stack = await startTestStack({ engine, auth: { clock: () => clockMs, mfa: { webauthnEnabled: true, relyingParty } } });
    });
    afterAll(() => stack?.stop());
    // Every request here comes from 127.0.0.1: each test starts with the address's MFA allowance refilled.
    beforeEach(() => {
      clockMs += 10 * 60_000;
    });

    const person = async () => {
      const user = await freshUser(stack, demo.storeA);
      return { ...user, client: await stack.signIn(user.email, user.password) };
    };
    const token = async (client: SupabaseClient) => (await client.auth.getSession()).data.session?.access_token ?? '';
    const stored = async (factorId: string): Promise<StoredFactor> => {
      const { rows } = await stack.database.query<StoredFactor>(
        'select status::text, web_authn_credential as credential, web_authn_aaguid::text as aaguid from auth.mfa_factors where id = $1',
        [factorId],
      );
      return rows[0] as StoredFactor;
    };

    it('enrols a key by name; its first challenge asks the browser to create a credential for this site and person', async () => {
      const { client, id, email } = await person();
      const { data, error } = await client.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'Office key' });
      expect(error).toBeNull();
      expect(data).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), type: 'webauthn', friendly_name: 'Office key' });
      expect((await client.auth.mfa.listFactors()).data?.all).toEqual([expect.objectContaining({ id: data?.id, factor_type: 'webauthn', status: 'unverified' })]);

      const raw = await authCall(stack, 'POST', `/factors/${data?.id}/challenge`, { token: await token(client), body: {} });
      expect(raw.status).toBe(200);
      expect(raw.body).toMatchObject({ id: expect.any(String), type: 'webauthn', webauthn: { type: 'create' } });
      expect(Math.abs(Number(raw.body.expires_at) - (Date.now() / 1000 + 300))).toBeLessThan(30);
      const options = (raw.body.webauthn as { credential_options: { publicKey: Record<string, unknown> } }).credential_options.publicKey;
      expect(options).toEqual({
        rp: { id: 'localhost', name: 'Service Dashboard' },
        user: { id: Buffer.from(id).toString('base64url'), name: email, displayName: email },
        challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }, { type: 'public-key', alg: -257 }],
        timeout: 300_000,
        excludeCredentials: [],
        authenticatorSelection: { residentKey: 'discouraged', requireResidentKey: false, userVerification: 'preferred' },
        attestation: 'none',
      });
      const { rows } = await stack.database.query<{ state: Record<string, unknown> }>('select web_authn_session_data as state from auth.mfa_challenges where id = $1', [raw.body.id]);
      expect(rows[0]?.state).toMatchObject({ challenge: options.challenge, rpId: 'localhost', user_id: Buffer.from(id).toString('base64') });
    });

    it('registers the key (none attestation): the session is aal2 with mfa/webauthn in its amr, the key and its counter are kept', async () => {
      const { client } = await person();
      const key = new SoftwareAuthenticator({ aaguid: Buffer.from('0102030405060708090a0b0c0d0e0f10', 'hex') });
      const before = await sessionClaims(client);
      const factorId = await registerKey(client, key, 'Office key');
      const claims = await sessionClaims(client);
      expect(claims).toMatchObject({ aal: 'aal2', session_id: before.session_id });
      expect(claims.amr).toEqual([
        { method: 'mfa/webauthn', timestamp: expect.any(Number) },
        { method: 'password', timestamp: expect.any(Number) },
      ]);
      expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
      expect(await stored(factorId)).toEqual({
        status: 'verified',
        credential: expect.objectContaining({ id: key.credentialId.toString('base64'), publicKey: key.coseKey().toString('base64'), authenticator: expect.objectContaining({ signCount: 1 }) }),
        aaguid: '01020304-0506-0708-090a-0b0c0d0e0f10',
      });
      const listed = await client.auth.mfa.listFactors();
      expect(listed.data?.webauthn).toEqual([expect.objectContaining({ id: factorId, factor_type: 'webauthn', status: 'verified', friendly_name: 'Office key' })]);
      // The key's public key and id stay on the server.
      const user = JSON.stringify((await client.auth.getUser()).data.user);
      expect(user).not.toContain(key.coseKey().toString('base64'));
      expect(user).not.toContain(key.credentialId.toString('base64'));
      expect(user).toContain('"web_authn_aaguid":"01020304-0506-0708-090a-0b0c0d0e0f10"');
      const refreshed = await client.auth.refreshSession();
      expect(tokenClaims(refreshed.data.session?.access_token)).toMatchObject({ aal: 'aal2', amr: claims.amr });
    });

    it('registers packed self-attestation, ES256 and RS256 keys', async () => {
      for (const algorithm of ['ES256', 'RS256'] as const) {
        const { client } = await person();
        const factorId = await registerKey(client, new SoftwareAuthenticator({ algorithm }), `Key ${algorithm}`, { format: 'packed' });
        expect(await stored(factorId)).toMatchObject({ status: 'verified', credential: { attestationType: 'self', attestationFormat: 'packed' } });
      }
    });

    it('signs in again with the password (aal1, aal2 next), then with the key: aal2, the counter moved on, other aal1 sessions ended', async () => {
      const someone = await person();
      const key = new SoftwareAuthenticator();
      const factorId = await registerKey(someone.client, key);
      const laptop = await stack.signIn(someone.email, someone.password);
      const tablet = await stack.signIn(someone.email, someone.password);
      expect((await laptop.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });

      const ceremony = await challengeKey(laptop, factorId);
      expect(ceremony.type).toBe('request');
      // supabase-js hands the options over as a browser needs them: bytes, not text.
      expect(ceremony.options.challenge).toBeInstanceOf(ArrayBuffer);
      const raw = ceremony.options as unknown as { rpId: string; userVerification: string; allowCredentials: Array<{ id: ArrayBuffer; type: string }> };
      expect(raw).toMatchObject({ rpId: 'localhost', userVerification: 'preferred' });
      expect(raw.allowCredentials.map((entry) => Buffer.from(entry.id).toString('base64url'))).toEqual([key.credentialId.toString('base64url')]);
      const counter = key.signCount;
      expect(await answer(laptop, factorId, ceremony, key)).toBeNull();
      expect(await sessionClaims(laptop)).toMatchObject({ aal: 'aal2', amr: [{ method: 'mfa/webauthn' }, { method: 'password' }] });
      expect((await stored(factorId)).credential?.authenticator.signCount).toBe(counter);
      expect((await tablet.auth.refreshSession()).error).toMatchObject({ code: 'refresh_token_not_found' });
      expect((await someone.client.auth.refreshSession()).error).toBeNull();
    });

    it('refuses an answer from another origin, to another challenge, with a bad signature or a counter gone back; each spends its challenge', async () => {
      // Four failures: the fifth attempt is still free (the limits are the next test's).
      const someone = await person();
      const key = new SoftwareAuthenticator();
      const factorId = await registerKey(someone.client, key);
      const client = await stack.signIn(someone.email, someone.password);
      const refusedWith = (reason: RegExp) => ({ status: 422, code: 'mfa_verification_failed', message: expect.stringMatching(reason) });

      const phished = await challengeKey(client, factorId);
      expect(await answer(client, factorId, phished, key, { origin: 'https://dashboard-login.example' })).toMatchObject(
        refusedWith(/^WebAuthn verification failed: the origin "https:\/\/dashboard-login.example" is not one this site allows$/),
      );
      // One try per challenge: the right answer to it now finds no challenge.
      expect(await answer(client, factorId, phished, key)).toMatchObject({ status: 422, code: 'mfa_factor_not_found' });

      const other = await challengeKey(client, factorId);
      const stale = await challengeKey(client, factorId);
      expect(await answer(client, factorId, stale, key, { challenge: Buffer.from(other.options.challenge as ArrayBuffer).toString('base64url') })).toMatchObject(
        refusedWith(/answers another challenge/),
      );
      expect(await answer(client, factorId, await challengeKey(client, factorId), key, { breakSignature: true })).toMatchObject(refusedWith(/signature does not match the security key/));
      const counter = (await stored(factorId)).credential?.authenticator.signCount ?? 0;
      expect(await answer(client, factorId, await challengeKey(client, factorId), key, { signCount: counter - 1 })).toMatchObject(
        refusedWith(new RegExp(`counter went from ${counter} to ${counter - 1}: the key may have been copied`)),
      );
      expect(await sessionClaims(client)).toMatchObject({ aal: 'aal1' });
      expect((await stored(factorId)).credential?.authenticator.signCount).toBe(counter);
      // The challenge asked before the refusals still works, once.
      expect(await answer(client, factorId, other, key)).toBeNull();
      expect(await sessionClaims(client)).toMatchObject({ aal: 'aal2' });
    });

    it('refuses a replayed answer, an expired challenge, another address and a registration answer to a sign-in', async () => {
      const someone = await person();
      const key = new SoftwareAuthenticator();
      const factorId = await registerKey(someone.client, key);
      const client = await stack.signIn(someone.email, someone.password);

      const ceremony = await challengeKey(client, factorId);
      const signed = key.assert(ceremony.options, appOrigin);
      const send = (body: unknown, from?: string) => authCall(stack, 'POST', `/factors/${factorId}/verify`, { from, token: bearer, body });
      let bearer = await token(client);
      const body = { challenge_id: ceremony.challengeId, webauthn: { type: 'request', credential_response: signed } };
      expect((await send(body)).status).toBe(200);
      // The same signed answer again: the challenge was spent (deleted, as GoTrue does).
      expect(await send(body)).toMatchObject({ status: 422, body: { code: 'mfa_factor_not_found', message: 'MFA factor with the provided challenge ID not found' } });

      const weak = await stack.signIn(someone.email, someone.password);
      bearer = await token(weak);
      const late = await challengeKey(weak, factorId);
      await stack.database.query(`update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1`, [late.challengeId]);
      expect(await answer(weak, factorId, late, key)).toMatchObject({
        status: 422,
        code: 'mfa_challenge_expired',
        message: `MFA challenge ${late.challengeId} has expired, verify against another challenge or create a new challenge.`,
      });

      const asked = await authCall(stack, 'POST', `/factors/${factorId}/challenge`, { token: bearer, from: '127.0.0.2', body: {} });
      const options = (asked.body.webauthn as { credential_options: { publicKey: { challenge: string; rpId: string } } }).credential_options.publicKey;
      expect(await send({ challenge_id: asked.body.id, webauthn: { type: 'request', credential_response: key.assert(options, appOrigin) } }, '127.0.0.3')).toMatchObject({
        status: 422,
        body: { code: 'mfa_ip_address_mismatch' },
      });

      const wrongKind = await challengeKey(weak, factorId);
      expect(await send({ challenge_id: wrongKind.challengeId, webauthn: { type: 'create', credential_response: key.assert(wrongKind.options, appOrigin) } })).toMatchObject({
        status: 422,
        body: { code: 'mfa_verification_failed', message: 'WebAuthn verification failed: this challenge signs in with a registered key (type request)' },
      });
      expect(await sessionClaims(weak)).toMatchObject({ aal: 'aal1' });
    });

    it('answers a malformed verification as GoTrue does, and a broken credential with a reason, without harm', async () => {
      const { client } = await person();
      const { data } = await client.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'Key' });
      const factorId = data?.id ?? '';
      const bearer = await token(client);
      const challengeId = (await challengeKey(client, factorId)).challengeId;
      const send = (body: unknown) => authCall(stack, 'POST', `/factors/${factorId}/verify`, { token: bearer, body });
      expect(await send({ challenge_id: challengeId })).toMatchObject({ status: 400, body: { code: 'validation_failed', message: 'WebAuthn config required' } });
      expect(await send({ challenge_id: challengeId, webauthn: { type: 'get' } })).toMatchObject({ status: 400, body: { message: 'WebAuthn type must be create or request' } });
      expect(await send({ challenge_id: challengeId, webauthn: { type: 'create' } })).toMatchObject({ status: 400, body: { message: 'credential_response required' } });
      expect(await send({ challenge_id: challengeId, webauthn: { type: 'create', credential_response: 'x' } })).toMatchObject({ status: 400, body: { message: 'Invalid credential_response' } });
      const hostile = [
        { id: 'AA', rawId: 'AA', type: 'public-key', response: { clientDataJSON: '!!', attestationObject: 'AA' } },
        { id: 'AA', rawId: 'AA', type: 'public-key', response: { clientDataJSON: Buffer.from('{}').toString('base64url'), attestationObject: Buffer.from([0xbf]).toString('base64url') } },
        { id: 'A'.repeat(5000), type: 'public-key', response: {} },
      ];
      for (const credential of hostile) {
        const fresh = await challengeKey(client, factorId);
        const reply = await send({ challenge_id: fresh.challengeId, webauthn: { type: 'create', credential_response: credential } });
        expect(reply).toMatchObject({ status: 422, body: { code: 'mfa_verification_failed', message: expect.stringMatching(/^WebAuthn verification failed: /) } });
      }
      expect((await stored(factorId)).status).toBe('unverified');
      // A code is no answer for a key, and a key's factor asks for none.
      expect(await send({ challenge_id: (await challengeKey(client, factorId)).challengeId, code: '123456' })).toMatchObject({ status: 400, body: { message: 'WebAuthn config required' } });
    });

    it('slows repeated failures of one key from any address, and takes the right answer once the wait is over', async () => {
      const someone = await person();
      const key = new SoftwareAuthenticator();
      const factorId = await registerKey(someone.client, key);
      const client = await stack.signIn(someone.email, someone.password);
      const bearer = await token(client);
      const attempt = async (from: string, spoil = {}) => {
        const asked = await authCall(stack, 'POST', `/factors/${factorId}/challenge`, { token: bearer, from, body: {} });
        const options = (asked.body.webauthn as { credential_options: { publicKey: { challenge: string; rpId: string } } }).credential_options.publicKey;
        return authCall(stack, 'POST', `/factors/${factorId}/verify`, {
          token: bearer,
          from,
          body: { challenge_id: asked.body.id, webauthn: { type: 'request', credential_response: key.assert(options, appOrigin, spoil) } },
        });
      };
      for (let n = 0; n < 5; n += 1) expect((await attempt(`127.0.0.${60 + n}`, { breakSignature: true })).body.code).toBe('mfa_verification_failed');
      const held = await attempt('127.0.0.70');
      expect(held).toMatchObject({ status: 429, body: { code: 'over_request_rate_limit', message: 'Too many failed attempts with this security key. Try again in 30 seconds.' } });
      expect(held.headers['retry-after']).toBe('30');
      clockMs += 30_000;
      expect((await attempt('127.0.0.71')).status).toBe(200);
      // The challenges of one address are limited as an authenticator app's: 30 at once.
      let limited = 0;
      for (let n = 0; n < 31; n += 1) {
        if ((await authCall(stack, 'POST', `/factors/${factorId}/challenge`, { token: bearer, from: '127.0.0.80', body: {} })).status === 429) limited += 1;
      }
      expect(limited).toBe(1);
    });

    it('unenrols a key only from an aal2 session, after which the session is back at aal1', async () => {
      const someone = await person();
      const key = new SoftwareAuthenticator();
      const factorId = await registerKey(someone.client, key);
      const weak = await stack.signIn(someone.email, someone.password);
      expect((await weak.auth.mfa.unenroll({ factorId })).error).toMatchObject({ status: 422, code: 'insufficient_aal' });
      expect((await someone.client.auth.mfa.unenroll({ factorId })).error).toBeNull();
      expect((await someone.client.auth.mfa.listFactors()).data?.all).toEqual([]);
      const refreshed = await someone.client.auth.refreshSession();
      expect(tokenClaims(refreshed.data.session?.access_token)).toMatchObject({ aal: 'aal1', amr: [{ method: 'password' }] });
      // The key can be registered again, as a new factor.
      await registerKey(someone.client, key, 'Office key again');
      expect(await sessionClaims(someone.client)).toMatchObject({ aal: 'aal2' });
    });

    it('lets the admin API list and remove a key: the sessions it raised go back to aal1', async () => {
      const someone = await person();
      const key = new SoftwareAuthenticator();
      const factorId = await registerKey(someone.client, key, 'Lost key');
      const admin = stack.service().auth.admin.mfa;
      const listed = await admin.listFactors({ userId: someone.id });
      expect(listed).toMatchObject({ error: null, data: { factors: [{ id: factorId, factor_type: 'webauthn', status: 'verified', friendly_name: 'Lost key' }] } });
      expect(JSON.stringify(listed.data)).not.toContain(key.coseKey().toString('base64'));
      expect((await admin.deleteFactor({ userId: someone.id, id: factorId })).error).toBeNull();
      expect((await admin.listFactors({ userId: someone.id })).data?.factors).toEqual([]);
      const refreshed = await someone.client.auth.refreshSession();
      expect(tokenClaims(refreshed.data.session?.access_token)).toMatchObject({ aal: 'aal1' });
    });

    it('offers every key of the person at sign-in; the session remembers the key that signed, so removing it lowers the session', async () => {
      const someone = await person();
      const office = new SoftwareAuthenticator();
      const laptop = new SoftwareAuthenticator({ counts: false });
      const officeId = await registerKey(someone.client, office, 'Office key');
      const laptopId = await registerKey(someone.client, laptop, 'Laptop passkey');
      const client = await stack.signIn(someone.email, someone.password);
      const ceremony = await challengeKey(client, officeId);
      const offered = (ceremony.options as unknown as { allowCredentials: Array<{ id: ArrayBuffer }> }).allowCredentials;
      expect(offered.map((entry) => Buffer.from(entry.id).toString('base64url')).sort()).toEqual([office, laptop].map((k) => k.credentialId.toString('base64url')).sort());
      // The laptop's passkey answers the office key's challenge: either of the person's keys will do.
      expect(await answer(client, officeId, ceremony, laptop)).toBeNull();
      const { rows } = await stack.database.query<{ factor_id: string }>('select factor_id::text from auth.sessions where id = $1', [(await sessionClaims(client)).session_id]);
      expect(rows[0]?.factor_id).toBe(laptopId);
      expect((await stack.service().auth.admin.mfa.deleteFactor({ userId: someone.id, id: laptopId })).error).toBeNull();
      expect(tokenClaims((await client.auth.refreshSession()).data.session?.access_token)).toMatchObject({ aal: 'aal1' });
      await signInWithKey(client, officeId, office);
      expect(await sessionClaims(client)).toMatchObject({ aal: 'aal2' });
    });

    it('keeps an authenticator app and a key side by side: either one raises a new session to aal2, and admin powers follow', async () => {
      const admin = await stack.signIn('admin@example.com');
      const app = await enrolAndVerify(admin, 'Admin phone');
      const key = new SoftwareAuthenticator();
      const keyId = await registerKey(admin, key, 'Admin key');
      expect((await admin.auth.mfa.listFactors()).data).toMatchObject({ totp: [{ id: app.factorId }], webauthn: [{ id: keyId }] });

      const invoke = async (client: SupabaseClient) => {
        const { error } = await client.functions.invoke('admin-api', { body: { action: 'listUsers' } });
        return error instanceof FunctionsHttpError ? (error.context as Response).status : error ? 0 : 200;
      };
      const withKey = await stack.signIn('admin@example.com');
      expect(await invoke(withKey)).toBe(403);
      await signInWithKey(withKey, keyId, key);
      expect(await invoke(withKey)).toBe(200);
      expect((await withKey.rpc('security_settings')).error).toBeNull();

      const withCode = await stack.signIn('admin@example.com');
      await verifyWithCode(withCode, app);
      expect(await sessionClaims(withCode)).toMatchObject({ aal: 'aal2', amr: [{ method: 'totp' }, { method: 'password' }] });
    });

    it('refuses a key registered by someone else, and a key answering for another account', async () => {
      const owner = await person();
      const thief = await person();
      const key = new SoftwareAuthenticator();
      await registerKey(owner.client, key);
      const { data } = await thief.client.auth.mfa.enroll({ factorType: 'webauthn', friendlyName: 'Copied key' });
      expect(await answer(thief.client, data?.id ?? '', await challengeKey(thief.client, data?.id ?? ''), key)).toMatchObject({
        status: 422,
        message: 'WebAuthn verification failed: this security key is already registered',
      });
      const thiefKey = new SoftwareAuthenticator();
      const thiefId = await registerKey(thief.client, thiefKey);
      const again = await stack.signIn(thief.email, thief.password);
      expect(await answer(again, thiefId, await challengeKey(again, thiefId), thiefKey, { userHandle: Buffer.from(owner.id).toString('base64url') })).toMatchObject({
        status: 422,
        message: 'WebAuthn verification failed: the security key answered for another account',
      });
    });
  });
}
