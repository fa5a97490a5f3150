import { describe, expect, it } from 'vitest';
import { accountFromSession } from '../../../src/sync/account.ts';

const session = (user: Record<string, unknown>) => JSON.stringify({ access_token: 't', refresh_token: 'r', user: { id: 'u1', email: 'a@example.com', ...user } });
const authError = (user: Record<string, unknown>) => {
  const state = accountFromSession(session(user));
  return state.status === 'signed-in' ? state.authError : `not signed in: ${state.status}`;
};

describe('the Authentication Issue states of a signed-in account', () => {
  it('has none for an account with a store', () => {
    expect(authError({ app_metadata: { store_id: '11111111-1111-4111-8111-111111111111' } })).toBeNull();
  });

  it('says no store is assigned when the permissions name none', () => {
    expect(authError({ app_metadata: { provider: 'email' } })).toBe(
      'Your account is not properly configured. Please contact your administrator to assign you to a store.',
    );
  });

  it('says the account permissions could not be loaded when the session carries none', () => {
    for (const app_metadata of [undefined, null, 'store', ['x']]) {
      expect(authError({ app_metadata })).toBe('Unable to load your account permissions. This may be due to recent security updates.');
    }
  });

  it('says the user permissions could not be loaded when the assigned store cannot be read', () => {
    for (const store_id of ['not-a-store', 42, { id: 'x' }]) {
      expect(authError({ app_metadata: { store_id } })).toBe(
        'Unable to load your user permissions: the store assigned to this account cannot be read. Please contact your administrator.',
      );
    }
  });
});
