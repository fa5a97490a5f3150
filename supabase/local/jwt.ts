/** HS256 JSON Web Tokens, as hosted Supabase signs them with the project's JWT secret. */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type JwtClaims = Record<string, unknown> & { exp?: number; role?: string; sub?: string };

const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function signature(data: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

export function signJwt(claims: JwtClaims, secret: string): string {
  const body = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${signature(body, secret).toString('base64url')}`;
}

export type JwtCheck =
  | { ok: true; claims: JwtClaims }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

/** Verifies signature, algorithm and expiry; `now` is seconds since the epoch. */
export function verifyJwt(token: string, secret: string, now = Date.now() / 1000): JwtCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [head, body, sig] = parts as [string, string, string];
  let claims: JwtClaims;
  try {
    const parsedHeader = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
    if (parsedHeader.alg !== 'HS256') return { ok: false, reason: 'bad_signature' };
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as JwtClaims;
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return { ok: false, reason: 'malformed' };
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const expected = signature(`${head}.${body}`, secret);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  if (typeof claims.exp === 'number' && claims.exp <= now) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}
