/**
 * JSON Web Tokens as hosted Supabase signs them with the project's JWT secret (HS256),
 * signed and verified by `jose`. Verification is strict: only the algorithm this stack
 * issues, canonical base64url segments, a payload that is an object with an `exp`, and
 * `nbf` / `iat` that are not in the future. Everything else is refused, never guessed at.
 */
import { errors, jwtVerify, SignJWT } from 'jose';

export type JwtClaims = Record<string, unknown> & { exp?: number; role?: string; sub?: string };

/** The only algorithm this stack signs with, and therefore the only one it accepts. */
const issuedAlgorithm = 'HS256';
/** How far in the future `iat` may lie: none, beyond rounding, since this process signs and verifies. */
const issuedAtSkewSeconds = 5;
const base64urlSegment = /^[A-Za-z0-9_-]+$/;

function keyFor(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function signJwt(claims: JwtClaims, secret: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: issuedAlgorithm, typ: 'JWT' }).sign(keyFor(secret));
}

export type JwtRefusal = 'malformed' | 'bad_signature' | 'expired' | 'not_yet_valid' | 'issued_in_future';

export type JwtCheck = { ok: true; claims: JwtClaims } | { ok: false; reason: JwtRefusal };

/** Verifies signature, algorithm and time claims; `now` is seconds since the epoch. */
export async function verifyJwt(token: string, secret: string, now = Date.now() / 1000): Promise<JwtCheck> {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => base64urlSegment.test(part))) return { ok: false, reason: 'malformed' };
  try {
    const { payload } = await jwtVerify(token, keyFor(secret), {
      algorithms: [issuedAlgorithm],
      requiredClaims: ['exp'],
      currentDate: new Date(now * 1000),
    });
    if (typeof payload.iat === 'number' && payload.iat > now + issuedAtSkewSeconds) {
      return { ok: false, reason: 'issued_in_future' };
    }
    return { ok: true, claims: payload as JwtClaims };
  } catch (error) {
    return { ok: false, reason: refusalFor(error) };
  }
}

function refusalFor(error: unknown): JwtRefusal {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) return error.claim === 'nbf' ? 'not_yet_valid' : 'malformed';
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JOSEAlgNotAllowed) {
    return 'bad_signature';
  }
  return 'malformed';
}
