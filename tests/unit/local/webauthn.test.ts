import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authSettingsFromEnv } from '../../../supabase/local/auth/settings.ts';
import type { CeremonyState, KnownCredential, RelyingParty, StoredCredential } from '../../../supabase/local/auth/webauthn.ts';
import { creationOptions, requestOptions, verifyAssertion, verifyRegistration } from '../../../supabase/local/auth/webauthn.ts';
import type { CeremonyOptions } from '../../support/software-authenticator.ts';
import { SoftwareAuthenticator } from '../../support/software-authenticator.ts';

const rp: RelyingParty = { id: 'dashboard.example', name: 'Service Dashboard', origins: ['https://dashboard.example'] };
const origin = 'https://dashboard.example';
const limits = authSettingsFromEnv({}).mfa.webauthn;
const userId = '6f1c2b4e-8d0a-4e5f-9a3b-1c2d3e4f5a6b';

function registration() {
  const { options, state } = creationOptions(rp, { id: userId, name: 'manager@example.com' }, [], 300_000);
  return { options: options.publicKey as unknown as CeremonyOptions, state };
}

function registered(authenticator: SoftwareAuthenticator, format: 'none' | 'packed' = 'none'): StoredCredential {
  const { options, state } = registration();
  const verdict = verifyRegistration(authenticator.register(options, origin, { format }), state, rp, limits);
  if (!verdict.ok) throw new Error(verdict.reason);
  return verdict.credential;
}

function signIn(known: KnownCredential[]) {
  const { options, state } = requestOptions(rp, userId, known.map((entry) => entry.credential), 300_000);
  return { options: options.publicKey as unknown as CeremonyOptions, state };
}

const reasonOf = (verdict: { ok: boolean; reason?: string }) => (verdict.ok ? 'accepted' : verdict.reason);

describe('registering a security key (the relying party\'s checks)', () => {
  it('offers ES256 and RS256, a fresh 32-byte challenge, the person as user handle and their keys to exclude', () => {
    const existing = registered(new SoftwareAuthenticator());
    const { options, state } = creationOptions(rp, { id: userId, name: 'manager@example.com' }, [existing], 300_000);
    expect(options.publicKey).toMatchObject({
      rp: { id: 'dashboard.example', name: 'Service Dashboard' },
      user: { id: Buffer.from(userId).toString('base64url'), name: 'manager@example.com', displayName: 'manager@example.com' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }, { type: 'public-key', alg: -257 }],
      timeout: 300_000,
      attestation: 'none',
      excludeCredentials: [{ type: 'public-key', id: Buffer.from(existing.id, 'base64').toString('base64url'), transports: ['usb'] }],
    });
    expect(Buffer.from(state.challenge, 'base64url')).toHaveLength(32);
    expect(state.challenge).toBe(options.publicKey.challenge);
    expect(creationOptions(rp, { id: userId, name: 'x' }, [], 1).state.challenge).not.toBe(state.challenge);
  });

  it('accepts a none attestation and keeps the credential id, the COSE key, the counter and the model', () => {
    const key = new SoftwareAuthenticator({ aaguid: Buffer.from('00112233445566778899aabbccddeeff', 'hex') });
    const { options, state } = registration();
    const verdict = verifyRegistration(key.register(options, origin), state, rp, limits);
    expect(verdict).toMatchObject({ ok: true, aaguid: '00112233-4455-6677-8899-aabbccddeeff' });
    if (!verdict.ok) return;
    expect(verdict.credential).toEqual({
      id: key.credentialId.toString('base64'),
      publicKey: key.coseKey().toString('base64'),
      transport: ['usb'],
      flags: { userPresent: true, userVerified: true, backupEligible: false, backupState: false },
      authenticator: { AAGUID: Buffer.from('00112233445566778899aabbccddeeff', 'hex').toString('base64'), signCount: 1, cloneWarning: false, attachment: 'cross-platform' },
      attestationType: 'none',
      attestationFormat: 'none',
    });
  });

  it('accepts packed self-attestation signed by the new key, ES256 and RS256', () => {
    for (const algorithm of ['ES256', 'RS256'] as const) {
      const { options, state } = registration();
      const verdict = verifyRegistration(new SoftwareAuthenticator({ algorithm }).register(options, origin, { format: 'packed' }), state, rp, limits);
      expect(verdict).toMatchObject({ ok: true, credential: { attestationType: 'self', attestationFormat: 'packed' } });
    }
  });

  const refusals: Array<[string, Parameters<SoftwareAuthenticator['register']>[2], RegExp]> = [
    ['another origin', { origin: 'https://dashboard.example.evil' }, /origin "https:\/\/dashboard.example.evil" is not one this site allows/],
    ['a sign-in\'s client data', { clientType: 'webauthn.get' }, /of type "webauthn.get", not webauthn.create/],
    ['another challenge', { challenge: Buffer.alloc(32, 7).toString('base64url') }, /answers another challenge/],
    ['another relying party', { rpId: 'evil.example' }, /for another relying party than dashboard.example/],
    ['no touch (UP missing)', { flags: 0x44 }, /did not register the person's presence/],
    ['a frame of another site', { crossOrigin: true }, /ran in a frame of another site/],
    ['a packed signature that does not match', { format: 'packed', breakSignature: true }, /packed attestation's signature does not match/],
    ['a packed signature by another key', { format: 'packed', signWith: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey }, /signature does not match/],
    ['packed with a certificate', { format: 'packed', statement: new Map([['x5c', [Buffer.from('certificate')]]]) }, /with a certificate is not supported/],
    ['packed naming another algorithm', { format: 'packed', statement: new Map([['alg', -257]]) }, /algorithm is not the credential key's/],
    ['a format not supported', { format: 'fido-u2f' }, /format "fido-u2f" is not supported/],
    ['none with a statement', { statement: new Map([['sig', Buffer.from('x')]]) }, /none attestation carries a statement/],
  ];

  it.each(refusals)('refuses %s', (_what, spoil, reason) => {
    const { options, state } = registration();
    expect(reasonOf(verifyRegistration(new SoftwareAuthenticator().register(options, origin, spoil), state, rp, limits))).toMatch(reason);
  });

  it('refuses a key whose algorithm was not offered, an id that is not the key\'s, and no credential at all', () => {
    const { options, state } = registration();
    const rsaOnly: CeremonyState = { ...state, credParams: [{ type: 'public-key', alg: -257 }] };
    expect(reasonOf(verifyRegistration(new SoftwareAuthenticator().register(options, origin), rsaOnly, rp, limits))).toMatch(/algorithm was not offered/);
    const answer = new SoftwareAuthenticator().register(options, origin);
    const other = Buffer.alloc(32, 1).toString('base64url');
    expect(reasonOf(verifyRegistration({ ...answer, id: other, rawId: other }, state, rp, limits))).toMatch(/not the one the authenticator made/);
    expect(reasonOf(verifyRegistration({ ...answer, rawId: other }, state, rp, limits))).toMatch(/id and rawId differ/);
    expect(reasonOf(verifyRegistration(new SoftwareAuthenticator().register(options, origin, { flags: 0x05 }), state, rp, limits))).toMatch(/bytes after its content/);
  });

  it('refuses what is not an answer at all, with a reason and no exception', () => {
    const { options, state } = registration();
    const answer = new SoftwareAuthenticator().register(options, origin);
    const broken: unknown[] = [
      null,
      'credential',
      { ...answer, type: 'password' },
      { ...answer, response: 'x' },
      { ...answer, response: { ...answer.response, clientDataJSON: 'not base64!' } },
      { ...answer, response: { ...answer.response, clientDataJSON: Buffer.from('{"type":').toString('base64url') } },
      { ...answer, response: { ...answer.response, attestationObject: Buffer.from([0xa1, 0x63]).toString('base64url') } },
      { ...answer, response: { ...answer.response, attestationObject: Buffer.from([0x01]).toString('base64url') } },
      { ...answer, response: { ...answer.response, attestationObject: 'A'.repeat(30_000) } },
    ];
    for (const input of broken) expect(verifyRegistration(input, state, rp, limits)).toMatchObject({ ok: false, reason: expect.any(String) });
    expect(reasonOf(verifyRegistration(broken[8], state, rp, limits))).toMatch(/longer than 16384 bytes/);
  });

  it('asks for the person\'s verification when the ceremony required it', () => {
    const { options, state } = registration();
    const required: CeremonyState = { ...state, userVerification: 'required' };
    expect(reasonOf(verifyRegistration(new SoftwareAuthenticator().register(options, origin, { flags: 0x41 }), required, rp, limits))).toMatch(/did not verify the person/);
    expect(verifyRegistration(new SoftwareAuthenticator().register(options, origin, { flags: 0x41 }), state, rp, limits).ok).toBe(true);
  });
});

describe('signing in with a registered security key (the relying party\'s checks)', () => {
  const key = new SoftwareAuthenticator();
  const known: KnownCredential[] = [{ factorId: 'factor-1', credential: registered(key) }];

  it('lists the person\'s keys and accepts a signature of the stored key, naming its factor and new counter', () => {
    const { options, state } = signIn(known);
    expect(options).toMatchObject({ rpId: 'dashboard.example', userVerification: 'preferred', allowCredentials: [{ type: 'public-key', id: key.credentialId.toString('base64url') }] });
    const counter = key.signCount;
    expect(verifyAssertion(key.assert(options, origin), state, rp, known, limits)).toEqual({ ok: true, factorId: 'factor-1', signCount: counter });
  });

  it('accepts the person\'s own user handle and refuses another\'s', () => {
    const { options, state } = signIn(known);
    expect(verifyAssertion(key.assert(options, origin, { userHandle: Buffer.from(userId).toString('base64url') }), state, rp, known, limits).ok).toBe(true);
    const second = signIn(known);
    expect(reasonOf(verifyAssertion(key.assert(second.options, origin, { userHandle: Buffer.from('someone else').toString('base64url') }), second.state, rp, known, limits))).toMatch(/answered for another account/);
  });

  const refusals: Array<[string, Parameters<SoftwareAuthenticator['assert']>[2], RegExp]> = [
    ['a broken signature', { breakSignature: true }, /signature does not match the security key/],
    ['a signature by another key', { signWith: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey }, /signature does not match/],
    ['another origin', { origin: 'http://localhost:4173' }, /origin "http:\/\/localhost:4173" is not one this site allows/],
    ['another challenge', { challenge: 'AAAA' }, /answers another challenge/],
    ['a registration\'s client data', { clientType: 'webauthn.create' }, /not webauthn.get/],
    ['another relying party', { rpId: 'example' }, /another relying party/],
    ['no touch', { flags: 0x04 }, /presence/],
    ['a counter that went back', { signCount: 0 }, /counter went from 1 to 0: the key may have been copied/],
    ['a counter that stood still', { signCount: 1 }, /counter went from 1 to 1/],
  ];

  it.each(refusals)('refuses %s', (_what, spoil, reason) => {
    const { options, state } = signIn(known);
    expect(reasonOf(verifyAssertion(key.assert(options, origin, spoil), state, rp, known, limits))).toMatch(reason);
  });

  it('refuses a key of nobody\'s, one not offered in the ceremony, and a sign-in that carries a new credential', () => {
    const { options, state } = signIn(known);
    expect(reasonOf(verifyAssertion(new SoftwareAuthenticator().assert(options, origin), state, rp, known, limits))).toMatch(/not one registered for this account/);
    const narrowed: CeremonyState = { ...state, allowed_credentials: [] };
    expect(reasonOf(verifyAssertion(key.assert(options, origin), narrowed, rp, known, limits))).toMatch(/not one registered/);
    const answer = key.assert(options, origin);
    const data = Buffer.from(answer.response.authenticatorData, 'base64url');
    data[32] = (data[32] as number) | 0x40;
    expect(reasonOf(verifyAssertion({ ...answer, response: { ...answer.response, authenticatorData: data.toString('base64url') } }, state, rp, known, limits))).toMatch(
      /ends inside the credential/,
    );
  });

  it('lets a key that never counts (always 0) sign in again and again', () => {
    const still = new SoftwareAuthenticator({ counts: false });
    const entries: KnownCredential[] = [{ factorId: 'factor-2', credential: registered(still, 'packed') }];
    for (let round = 0; round < 3; round += 1) {
      const { options, state } = signIn(entries);
      expect(verifyAssertion(still.assert(options, origin), state, rp, entries, limits)).toEqual({ ok: true, factorId: 'factor-2', signCount: 0 });
    }
  });

  it('checks an RS256 key\'s signature', () => {
    const rsa = new SoftwareAuthenticator({ algorithm: 'RS256' });
    const entries: KnownCredential[] = [{ factorId: 'factor-3', credential: registered(rsa) }];
    const { options, state } = signIn(entries);
    expect(verifyAssertion(rsa.assert(options, origin), state, rp, entries, limits).ok).toBe(true);
    const again = signIn(entries);
    expect(reasonOf(verifyAssertion(rsa.assert(again.options, origin, { breakSignature: true }), again.state, rp, entries, limits))).toMatch(/signature does not match/);
  });

  it('hashes the relying party id as the authenticator does', () => {
    // The first 32 bytes of what the software key signs are SHA-256 of the rp id, computed here apart.
    const { options } = signIn(known);
    const answer = key.assert(options, origin);
    expect(Buffer.from(answer.response.authenticatorData, 'base64url').subarray(0, 32)).toEqual(createHash('sha256').update('dashboard.example').digest());
  });
});
