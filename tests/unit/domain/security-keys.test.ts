import { describe, expect, it } from 'vitest';
import { authenticatorsOf, awaitsSecondStep, securityKeysOf } from '../../../src/domain/second-factor.ts';
import { accountFromSession } from '../../../src/sync/account.ts';

/** An unsigned token with these claims: the app reads claims, the server checks signatures. */
const token = (claims: Record<string, unknown>) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
const key = { id: 'k1', friendly_name: 'Office key', factor_type: 'webauthn', status: 'verified', created_at: '2026-11-02T09:00:00Z' };
const pendingKey = { id: 'k2', friendly_name: ' ', factor_type: 'webauthn', status: 'unverified', created_at: null };
const app = { id: 'f1', friendly_name: 'Phone', factor_type: 'totp', status: 'verified', created_at: '2026-11-01T10:00:00Z' };
const store = { store_id: '11111111-1111-4111-8111-111111111111' };

describe('security keys and passkeys, read from the session kept on the device', () => {
  it('lists the WebAuthn factors apart from the authenticator apps', () => {
    expect(securityKeysOf([app, key, pendingKey, null, 'x'])).toEqual([
      { id: 'k1', name: 'Office key', verified: true, createdAt: '2026-11-02T09:00:00Z' },
      { id: 'k2', name: 'Security key', verified: false, createdAt: null },
    ]);
    expect(authenticatorsOf([app, key]).map((factor) => factor.id)).toEqual(['f1']);
    expect(securityKeysOf(undefined)).toEqual([]);
  });

  it('asks for the second step of a person whose only factor is a key, until the session has it', () => {
    expect(awaitsSecondStep({ access_token: token({ aal: 'aal1' }), user: { factors: [key] } })).toBe(true);
    expect(awaitsSecondStep({ access_token: token({ aal: 'aal2' }), user: { factors: [key] } })).toBe(false);
    expect(awaitsSecondStep({ access_token: token({ aal: 'aal1' }), user: { factors: [pendingKey] } })).toBe(false);
    const state = accountFromSession(JSON.stringify({ access_token: token({ aal: 'aal1' }), refresh_token: 'r', user: { id: 'u1', app_metadata: store, factors: [app, key] } }));
    expect(state).toMatchObject({
      status: 'signed-in',
      account: { secondStepNeeded: true, authenticators: [{ id: 'f1' }], securityKeys: [{ id: 'k1', name: 'Office key' }] },
    });
  });
});
