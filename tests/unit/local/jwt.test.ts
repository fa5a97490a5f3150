import { CompactSign, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signJwt, verifyJwt } from '../../../supabase/local/jwt.ts';

const secret = 'a-test-secret-that-is-at-least-32-characters';
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

describe('HS256 tokens', () => {
  it('verify when untouched and unexpired', async () => {
    const token = await signJwt({ sub: 'u1', role: 'authenticated', exp: 2000 }, secret);
    expect(await verifyJwt(token, secret, 1999)).toEqual({ ok: true, claims: { sub: 'u1', role: 'authenticated', exp: 2000 } });
  });

  it('sign exactly as before: header {"alg":"HS256","typ":"JWT"}, so published keys stay the same', async () => {
    const token = await signJwt({ exp: 2000 }, secret);
    expect(token.split('.')[0]).toBe(b64({ alg: 'HS256', typ: 'JWT' }));
    expect(token.split('.')[1]).toBe(b64({ exp: 2000 }));
  });

  it('refuse what only a forger or a broken client would send', async () => {
    const valid = await signJwt({ sub: 'u1', exp: 3000 }, secret);
    const [head, body, sig] = valid.split('.') as [string, string, string];
    const key = new TextEncoder().encode(secret);
    const hs512 = await new SignJWT({ exp: 3000 }).setProtectedHeader({ alg: 'HS512' }).sign(key);
    const signedArray = await new CompactSign(new TextEncoder().encode('[1]')).setProtectedHeader({ alg: 'HS256' }).sign(key);
    const cases: Array<[string, string | Promise<string>, number, string]> = [
      ['expired at exp', signJwt({ exp: 2000 }, secret), 2000, 'expired'],
      ['signed with another secret', signJwt({ exp: 3000 }, `${secret}x`), 1000, 'bad_signature'],
      ['not three parts', 'abc.def', 1000, 'malformed'],
      ['alg none', `${b64({ alg: 'none' })}.${b64({ role: 'service_role', exp: 3000 })}.`, 1000, 'malformed'],
      ['alg none with a signature', `${b64({ alg: 'none' })}.${b64({ role: 'service_role', exp: 3000 })}.${sig}`, 1000, 'bad_signature'],
      ['another HMAC algorithm (HS512) with the right secret', hs512, 1000, 'bad_signature'],
      ['a signed payload that is not an object', signedArray, 1000, 'malformed'],
      ['no exp', signJwt({ sub: 'u1' }, secret), 1000, 'malformed'],
      ['nbf in the future', signJwt({ exp: 3000, nbf: 1500 }, secret), 1000, 'not_yet_valid'],
      ['iat in the future', signJwt({ exp: 3000, iat: 1500 }, secret), 1000, 'issued_in_future'],
      ['a segment padded with "="', `${head}.${body}=.${sig}`, 1000, 'malformed'],
      ['base64 "+" and "/" instead of base64url', `${head}.${body}.${sig.replaceAll('-', '+').replaceAll('_', '/')}x+/`, 1000, 'malformed'],
      ['whitespace inside', `${head}.${body} .${sig}`, 1000, 'malformed'],
      ['a tampered payload', `${head}.${b64({ sub: 'u1', role: 'service_role', exp: 3000 })}.${sig}`, 1000, 'bad_signature'],
    ];
    for (const [name, token, now, reason] of cases) {
      expect({ name, check: await verifyJwt(await token, secret, now) }).toEqual({ name, check: { ok: false, reason } });
    }
  });

  it('accepts nbf and iat in the past', async () => {
    const token = await signJwt({ exp: 3000, nbf: 900, iat: 900 }, secret);
    expect(await verifyJwt(token, secret, 1000)).toMatchObject({ ok: true });
  });
});
