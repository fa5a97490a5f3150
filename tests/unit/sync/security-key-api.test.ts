import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthenticatorApi } from '../../../src/sync/authenticator-api.ts';

/**
 * The app's side of adding and using a security key, against a recorded stand-in for
 * supabase-js's `auth.mfa`: what a page that cannot use WebAuthn says (and that it asks
 * the server nothing), and how a name held by a key left half set up gives way while a
 * name held by anything else is refused in words.
 */

type Call = [string, unknown];
type Answer = { data: unknown; error: unknown };
type Factor = { id: string; friendly_name: string; factor_type: 'totp' | 'webauthn'; status: 'verified' | 'unverified' };

const nameConflict = { name: 'AuthApiError', status: 422, code: 'mfa_factor_name_conflict', message: 'A factor with the friendly name "Desk key" for this user already exists' };
const webauthnOff = { name: 'AuthApiError', status: 422, code: 'mfa_webauthn_verify_not_enabled', message: 'MFA verification is disabled for WebAuthn' };

/** An `auth.mfa` that records every call and answers enrolments in turn from `enrolments`. */
function recordedAuth(enrolments: Answer[], factors: Factor[]) {
  const calls: Call[] = [];
  const mfa = {
    enroll: async (params: unknown) => {
      calls.push(['enroll', params]);
      return enrolments.shift() ?? { data: null, error: { message: 'no more enrolments' } };
    },
    listFactors: async () => {
      calls.push(['listFactors', null]);
      return { data: { all: factors, totp: [], phone: [], webauthn: [] }, error: null };
    },
    unenroll: async ({ factorId }: { factorId: string }) => {
      calls.push(['unenroll', factorId]);
      return { data: { id: factorId }, error: null };
    },
    challenge: async ({ factorId }: { factorId: string }) => {
      calls.push(['challenge', factorId]);
      return { data: null, error: webauthnOff };
    },
  };
  return { calls, api: createAuthenticatorApi(Promise.resolve({ auth: { mfa } } as never)) };
}

/** A secure page whose browser offers WebAuthn (the ceremony itself is never reached here). */
function browserWithWebauthn() {
  vi.stubGlobal('isSecureContext', true);
  vi.stubGlobal('PublicKeyCredential', vi.fn());
  vi.stubGlobal('navigator', { onLine: true, credentials: { create: async () => null, get: async () => null } });
  vi.stubGlobal('location', { hostname: 'localhost', origin: 'http://localhost:4173' });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a page that cannot use security keys', () => {
  it('says the browser cannot, and asks the server nothing', async () => {
    vi.stubGlobal('isSecureContext', true);
    vi.stubGlobal('PublicKeyCredential', undefined);
    const { calls, api } = recordedAuth([], []);
    const unsupported = 'This browser cannot use security keys or passkeys. Use a current Chrome, Edge, Firefox or Safari, or an authenticator app.';
    expect(await api.addSecurityKey('Desk key')).toEqual({ ok: false, message: unsupported });
    expect(await api.useSecurityKey('a-factor')).toEqual({ ok: false, message: unsupported });
    expect(calls).toEqual([]);
  });

  it('at a plain http:// address, says the address is the reason', async () => {
    // Browsers leave WebAuthn out of pages that are not a secure context.
    vi.stubGlobal('isSecureContext', false);
    vi.stubGlobal('PublicKeyCredential', undefined);
    const { calls, api } = recordedAuth([], []);
    const insecure = await api.addSecurityKey('Desk key');
    expect(insecure).toEqual({
      ok: false,
      message:
        'Security keys and passkeys work only at a secure address: open the app at its https:// address or at http://localhost, not at an http:// address such as http://192.168.1.20. Or use an authenticator app.',
    });
    expect(await api.useSecurityKey('a-factor')).toEqual(insecure);
    expect(calls).toEqual([]);
  });
});

describe('a name already held when a key is added', () => {
  it('removes a key of that name left half set up, enrols again, and leaves nothing when the ceremony then fails', async () => {
    browserWithWebauthn();
    const { calls, api } = recordedAuth(
      [
        { data: null, error: nameConflict },
        { data: { id: 'new-key', type: 'webauthn', friendly_name: 'Desk key' }, error: null },
      ],
      [
        { id: 'phone', friendly_name: 'Phone', factor_type: 'totp', status: 'verified' },
        { id: 'abandoned', friendly_name: 'Desk key', factor_type: 'webauthn', status: 'unverified' },
      ],
    );
    const outcome = await api.addSecurityKey('  Desk key ');
    expect(outcome).toEqual({
      ok: false,
      message: 'Security keys and passkeys are not turned on for this server. Use an authenticator app, or ask whoever runs the server to turn them on.',
    });
    expect(calls).toEqual([
      ['enroll', { factorType: 'webauthn', friendlyName: 'Desk key' }],
      ['listFactors', null],
      ['unenroll', 'abandoned'],
      ['enroll', { factorType: 'webauthn', friendlyName: 'Desk key' }],
      ['challenge', 'new-key'],
      ['unenroll', 'new-key'],
    ]);
  });

  it.each([
    ['a registered security key', { id: 'held', friendly_name: 'Desk key', factor_type: 'webauthn', status: 'verified' } as const],
    ['an authenticator app being set up', { id: 'held', friendly_name: 'Desk key', factor_type: 'totp', status: 'unverified' } as const],
    ['a registered authenticator app', { id: 'held', friendly_name: 'Desk key', factor_type: 'totp', status: 'verified' } as const],
  ])('keeps %s and asks for another name', async (_, holder) => {
    browserWithWebauthn();
    const { calls, api } = recordedAuth([{ data: null, error: nameConflict }], [holder]);
    expect(await api.addSecurityKey('Desk key')).toEqual({
      ok: false,
      message: 'You already have an authenticator app or security key of this name (or one being set up). Choose another name.',
    });
    expect(calls).toEqual([
      ['enroll', { factorType: 'webauthn', friendlyName: 'Desk key' }],
      ['listFactors', null],
    ]);
  });
});
