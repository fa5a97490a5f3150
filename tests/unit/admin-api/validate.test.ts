import { describe, expect, it } from 'vitest';
import { checkNewUser, checkProfile, checkUserChange, checkUserId } from '../../../supabase/functions/admin-api/validate.ts';

const store = '11111111-1111-4111-8111-111111111111';

describe('checkNewUser', () => {
  it.each([
    [{ email: '', password: 'secret1' }, 'A valid e-mail address is required.'],
    [{ email: 'no-at-sign', password: 'secret1' }, 'A valid e-mail address is required.'],
    [{ email: 'a@b', password: 'secret1' }, 'A valid e-mail address is required.'],
    [{ email: 'new@example.com' }, 'Password must be at least 6 characters.'],
    [{ email: 'new@example.com', password: '12345' }, 'Password must be at least 6 characters.'],
    [{ email: 'new@example.com', password: 'x'.repeat(73) }, 'Password must be at most 72 bytes.'],
    [{ email: 'new@example.com', password: 'é'.repeat(37) }, 'Password must be at most 72 bytes.'],
    [{ email: 'new@example.com', password: '123456' }, 'This password is one of the first an attacker would try: choose another.'],
    [{ email: 'new@example.com', password: 'Password' }, 'This password is one of the first an attacker would try: choose another.'],
    [{ email: 'manager\u200B@example.com', password: 'tyre-42' }, 'The e-mail address contains invisible characters.'],
    [{ email: 'man\u00ADager@example.com', password: 'tyre-42' }, 'The e-mail address contains invisible characters.'],
    [{ email: 'manager@example.com\u2060', password: 'tyre-42' }, 'The e-mail address contains invisible characters.'],
    [{ email: '\uFEFFmanager@example.com', password: 'tyre-42' }, 'The e-mail address contains invisible characters.'],
    [{ email: 'new@example.com', password: 'tyre-42', user_metadata: { store_id: 'store-1' } }, 'Store must be a valid store id or none.'],
    [{ email: 'new@example.com', password: 'tyre-42', user_metadata: { is_admin: 'yes' } }, 'The admin flag must be true or false.'],
    [{ email: 'new@example.com', password: 'tyre-42', user_metadata: { firstName: 7 } }, 'First name must be text.'],
    [null, 'The request needs a payload.'],
  ])('refuses %j with "%s"', (payload, message) => {
    expect(checkNewUser(payload)).toEqual({ ok: false, error: message });
  });

  it('accepts exactly six characters, folds the full-width letter of the e-mail (NFKC) and cleans the profile', () => {
    expect(
      checkNewUser({
        email: '  Ｎew@Example.com ',
        password: 'tyre42',
        user_metadata: { firstName: ' Dana ', lastName: '', displayName: '   ', store_id: store, is_admin: 'true' },
      }),
    ).toEqual({
      ok: true,
      value: {
        email: 'new@example.com',
        password: 'tyre42',
        profile: { firstName: 'Dana', lastName: null, displayName: null, store_id: store, is_admin: true },
      },
    });
  });
});

describe('checkProfile', () => {
  it('reads "-- None --" (empty store) as no store and a missing flag as not admin', () => {
    expect(checkProfile({ store_id: '' })).toEqual({
      ok: true,
      value: { firstName: null, lastName: null, displayName: null, store_id: null, is_admin: false },
    });
  });
});

describe('checkUserChange', () => {
  const id = 'aaaaaaaa-0000-4000-8000-000000000002';
  it('refuses an e-mail change, a short password and a bad id', () => {
    expect(checkUserChange({ id, attributes: { email: 'x@y.z' } })).toEqual({
      ok: false,
      error: 'The e-mail address cannot be changed.',
    });
    expect(checkUserChange({ id, attributes: { password: 'abc' } })).toEqual({
      ok: false,
      error: 'Password must be at least 6 characters.',
    });
    expect(checkUserChange({ id: 'nope', attributes: {} })).toEqual({ ok: false, error: 'A valid user id is required.' });
  });
  it('treats an empty password as "keep the current one"', () => {
    expect(checkUserChange({ id, attributes: { password: '' } })).toEqual({ ok: true, value: { id } });
  });
});

describe('checkUserId', () => {
  it('needs a UUID', () => {
    expect(checkUserId({ id: "1' or 1=1" })).toEqual({ ok: false, error: 'A valid user id is required.' });
  });
});
