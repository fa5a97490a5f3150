/**
 * What a stored session says about the second sign-in step (docs/security.md,
 * "Multi-factor sign-in"): the authenticator apps and security keys of the account, and
 * whether this session has proven one (its access token's `aal` claim is aal2). A person
 * with a verified one whose session has not proven it is asked for the code or the key
 * before the app opens; read from the session kept on the device, so it holds offline too.
 */

export type Authenticator = { id: string; name: string; verified: boolean; createdAt: string | null };

type StoredFactor = { id?: unknown; friendly_name?: unknown; factor_type?: unknown; status?: unknown; created_at?: unknown };

function factorsOfType(factors: unknown, type: 'totp' | 'webauthn', unnamed: string): Authenticator[] {
  if (!Array.isArray(factors)) return [];
  return (factors as StoredFactor[])
    .filter((factor) => factor && typeof factor.id === 'string' && factor.factor_type === type)
    .map((factor) => ({
      id: factor.id as string,
      name: typeof factor.friendly_name === 'string' && factor.friendly_name.trim() ? factor.friendly_name : unnamed,
      verified: factor.status === 'verified',
      createdAt: typeof factor.created_at === 'string' ? factor.created_at : null,
    }));
}

/** The TOTP authenticators listed on a session's user (Auth's `factors`), verified or not. */
export function authenticatorsOf(factors: unknown): Authenticator[] {
  return factorsOfType(factors, 'totp', 'Authenticator app');
}

/** The security keys and passkeys (WebAuthn factors) listed on a session's user, verified or not. */
export function securityKeysOf(factors: unknown): Authenticator[] {
  return factorsOfType(factors, 'webauthn', 'Security key');
}

/** A claim of a JWT's payload, read without checking the signature (the server checks it). */
export function tokenClaim(token: unknown, name: string): unknown {
  if (typeof token !== 'string') return undefined;
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = decodeURIComponent(
      [...atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
    );
    return (JSON.parse(json) as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

/** True when the session's person has a verified authenticator app or security key and this session has not proven one. */
export function awaitsSecondStep(session: { access_token?: unknown; user?: { factors?: unknown } } | null | undefined): boolean {
  if (!session) return false;
  const factors = session.user?.factors;
  const proven = [...authenticatorsOf(factors), ...securityKeysOf(factors)].some((factor) => factor.verified);
  return proven && tokenClaim(session.access_token, 'aal') !== 'aal2';
}

/** A typed code as the server wants it: six digits, spaces and dashes dropped; null when it cannot be one. */
export function cleanCode(typed: string): string | null {
  const digits = typed.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}

/** The secret as a person types it into an app: groups of four letters. */
export function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}
