import { describe, expect, it } from 'vitest';
import { signJwt, verifyJwt } from '../../../supabase/local/jwt.ts';

const secret = 'a-test-secret-that-is-at-least-32-characters';

describe('HS256 tokens', () => {
  it('verify when untouched and unexpired', () => {
    const token = signJwt({ sub: 'u1', role: 'authenticated', exp: 2000 }, secret);
    expect(verifyJwt(token, secret, 1999)).toEqual({ ok: true, claims: { sub: 'u1', role: 'authenticated', exp: 2000 } });
  });
  it.each([
    ['expired at exp', signJwt({ exp: 2000 }, secret), 2000, 'expired'],
    ['signed with another secret', signJwt({ exp: 3000 }, `${secret}x`), 1000, 'bad_signature'],
    ['not three parts', 'abc.def', 1000, 'malformed'],
    ['an alg:none token', `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"role":"service_role"}').toString('base64url')}.`, 1000, 'bad_signature'],
    ['a payload that is not an object', `${signJwt({}, secret).split('.')[0]}.${Buffer.from('[1]').toString('base64url')}.x`, 1000, 'malformed'],
  ])('refuse a token %s', (_name, token, now, reason) => {
    expect(verifyJwt(token as string, secret, now as number)).toEqual({ ok: false, reason });
  });
});
