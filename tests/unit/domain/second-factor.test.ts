import { describe, expect, it } from 'vitest';
import { authenticatorsOf, awaitsSecondStep, cleanCode, groupedSecret, tokenClaim } from '../../../src/domain/second-factor.ts';
import { accountFromSession } from '../../../src/sync/account.ts';

/** An unsigned token with these claims: the app reads claims, the server checks signatures. */
const token = (claims: Record<string, unknown>) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
const verified = { id: 'f1', friendly_name: 'Phone', factor_type: 'totp', status: 'verified', created_at: '2026-11-01T10:00:00Z' };
const pending = { id: 'f2', friendly_name: '', factor_type: 'totp', status: 'unverified', created_at: null };
const store = { store_id: '11111111-1111-4111-8111-111111111111' };

describe('the second sign-in step, read from the session kept on the device', () => {
  it('lists the TOTP authenticators of the session\'s user, verified or not', () => {
    expect(authenticatorsOf([verified, pending, { id: 'w', factor_type: 'webauthn', status: 'verified' }, null, 'x'])).toEqual([
      { id: 'f1', name: 'Phone', verified: true, createdAt: '2026-11-01T10:00:00Z' },
      { id: 'f2', name: 'Authenticator app', verified: false, createdAt: null },
    ]);
    expect(authenticatorsOf(undefined)).toEqual([]);
  });

  it('reads a claim of the access token, and nothing from a malformed one', () => {
    expect(tokenClaim(token({ aal: 'aal2', name: 'Zoë' }), 'aal')).toBe('aal2');
    expect(tokenClaim(token({ name: 'Zoë' }), 'name')).toBe('Zoë');
    for (const bad of [undefined, 'x', 'a.!!!.c', 42]) expect(tokenClaim(bad, 'aal')).toBeUndefined();
  });

  it('awaits the code only for a verified authenticator and a session below aal2', () => {
    expect(awaitsSecondStep({ access_token: token({ aal: 'aal1' }), user: { factors: [verified] } })).toBe(true);
    expect(awaitsSecondStep({ access_token: token({}), user: { factors: [verified] } })).toBe(true);
    expect(awaitsSecondStep({ access_token: token({ aal: 'aal2' }), user: { factors: [verified] } })).toBe(false);
    expect(awaitsSecondStep({ access_token: token({ aal: 'aal1' }), user: { factors: [pending] } })).toBe(false);
    expect(awaitsSecondStep({ access_token: token({ aal: 'aal1' }), user: {} })).toBe(false);
    expect(awaitsSecondStep(null)).toBe(false);
  });

  it('keeps the sign-in of people without an authenticator as it was', () => {
    const state = accountFromSession(JSON.stringify({ access_token: 't', refresh_token: 'r', user: { id: 'u1', email: 'a@example.com', app_metadata: store } }));
    expect(state).toMatchObject({ status: 'signed-in', authError: null, account: { secondStepNeeded: false, authenticators: [], aal: 'aal1' } });
  });

  it('asks a person with an authenticator for the code until the session has it', () => {
    const at = (aal: string) =>
      accountFromSession(JSON.stringify({ access_token: token({ aal }), refresh_token: 'r', user: { id: 'u1', app_metadata: store, factors: [verified] } }));
    expect(at('aal1')).toMatchObject({ status: 'signed-in', account: { secondStepNeeded: true, aal: 'aal1' } });
    expect(at('aal2')).toMatchObject({ status: 'signed-in', account: { secondStepNeeded: false, aal: 'aal2' } });
  });

  it('takes a typed code with spaces or a dash, and nothing that is not six digits', () => {
    expect(['123456', ' 123 456 ', '123-456'].map(cleanCode)).toEqual(['123456', '123456', '123456']);
    expect(['12345', '1234567', 'abcdef', ''].map(cleanCode)).toEqual([null, null, null, null]);
  });

  it('shows the key in groups of four for typing', () => {
    expect(groupedSecret('ABCDEFGHIJKLMNOP')).toBe('ABCD EFGH IJKL MNOP');
  });
});
