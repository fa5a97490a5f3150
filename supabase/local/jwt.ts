/**
 * JSON Web Tokens as hosted Supabase signs them: with the project's shared secret
 * (HS256), and optionally with an asymmetric signing key (RS256 or ES256, named by its
 * `kid`) whose public half Auth publishes in its JWKS. Signed and verified by `jose`.
 * Verification is strict: only those algorithms, an asymmetric token only with the known
 * key's `kid`, canonical base64url segments, a payload that is an object with an `exp`,
 * and `nbf` / `iat` that are not in the future. Everything else is refused, never guessed at.
 */
import type { CryptoKey, JWK } from 'jose';
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';

export type JwtClaims = Record<string, unknown> & { exp?: number; role?: string; sub?: string };

export type AsymmetricAlgorithm = 'RS256' | 'ES256';

/** An asymmetric signing key: the private half signs sessions, the public half verifies them and goes in the JWKS. */
export type SigningKey = {
  alg: AsymmetricAlgorithm;
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The public key as the JWKS lists it. */
  publicJwk: JWK;
};

/** What verifies tokens: the shared secret, and the signing key when one is in use. */
export type JwtKeys = { secret: string; signing?: SigningKey };

/** How far in the future `iat` may lie: none, beyond rounding, since this process signs and verifies. */
const issuedAtSkewSeconds = 5;
const base64urlSegment = /^[A-Za-z0-9_-]+$/;

function keyFor(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** Signs with the shared secret (HS256), or with `key` (its algorithm and `kid` in the header). */
export async function signJwt(claims: JwtClaims, key: string | SigningKey): Promise<string> {
  const jwt = new SignJWT(claims);
  if (typeof key === 'string') return jwt.setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(keyFor(key));
  return jwt.setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
}

export type JwtRefusal = 'malformed' | 'bad_signature' | 'expired' | 'not_yet_valid' | 'issued_in_future';

export type JwtCheck = { ok: true; claims: JwtClaims } | { ok: false; reason: JwtRefusal };

/** The key a token's header names, among `keys`; null when none may verify it. */
function verificationKey(token: string, keys: JwtKeys): { key: Uint8Array | CryptoKey; alg: string } | null {
  const header = decodeProtectedHeader(token);
  if (header.alg === 'HS256') return { key: keyFor(keys.secret), alg: 'HS256' };
  const signing = keys.signing;
  if (signing && header.alg === signing.alg && header.kid === signing.kid) return { key: signing.publicKey, alg: signing.alg };
  return null;
}

/** Verifies signature, algorithm and time claims; `now` is seconds since the epoch. */
export async function verifyJwt(token: string, keys: string | JwtKeys, now = Date.now() / 1000): Promise<JwtCheck> {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => base64urlSegment.test(part))) return { ok: false, reason: 'malformed' };
  try {
    const found = verificationKey(token, typeof keys === 'string' ? { secret: keys } : keys);
    if (!found) return { ok: false, reason: 'bad_signature' };
    const { payload } = await jwtVerify(token, found.key, {
      algorithms: [found.alg],
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
