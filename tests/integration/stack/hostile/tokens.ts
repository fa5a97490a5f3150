/** The tokens the hostile-request suite's requests carry (its random source is tests/support/random.ts). */
import { createHmac } from 'node:crypto';

export type Tokens = {
  manager: string;
  anon: string;
  /** Right claims, wrong secret. */
  forged: string;
  /** Right secret, expired. */
  expired: string;
  /** Unsigned, with alg "none". */
  algNone: string;
  /** Right secret, a database role the API must never take. */
  postgresRole: string;
  garbage: string;
};

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An HS256 token written here, independently of the backend's own signing code. */
export function hs256(claims: Record<string, unknown>, secret: string, alg = 'HS256'): string {
  const body = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}`;
  return alg === 'none' ? `${body}.` : `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

export function hostileTokens(secret: string, manager: string, anon: string, managerId: string): Tokens {
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: managerId, role: 'authenticated', aud: 'authenticated', exp: now + 3600 };
  return {
    manager,
    anon,
    forged: hs256(claims, 'not-the-secret-not-the-secret-not-the-secret'),
    expired: hs256({ ...claims, exp: now - 60 }, secret),
    algNone: hs256(claims, secret, 'none'),
    postgresRole: hs256({ ...claims, role: 'postgres' }, secret),
    garbage: 'eyJhbGciOiJIUzI1NiJ9.%%%.###',
  };
}
