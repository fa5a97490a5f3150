/**
 * The admin function's rule for a second sign-in factor, the same as the database's
 * (migration 20260720000000_second_factor_for_admin_powers.sql, docs/security.md): a
 * caller who has verified an authenticator app must have proven it in this session (the
 * token's `aal` is aal2), and while the group requires it of admins, an admin without one
 * must enrol first. Read after Auth has accepted the token, so its claims can be trusted.
 */

export type FactorSummary = { status?: string };
export type SecondFactorMissing = 'verify' | 'enrol' | null;

/** The `aal` claim of an access token Auth has just accepted, or null. */
export function tokenAal(token: string): string | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const claims = JSON.parse(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))) as { aal?: unknown };
    return typeof claims.aal === 'string' ? claims.aal : null;
  } catch {
    return null;
  }
}

export function secondFactorMissing(aal: string | null, factors: FactorSummary[] | undefined, adminsNeedMfa: boolean): SecondFactorMissing {
  if (aal === 'aal2') return null;
  if ((factors ?? []).some((factor) => factor.status === 'verified')) return 'verify';
  return adminsNeedMfa ? 'enrol' : null;
}

/** What the admin screen shows when refused, worded as the database words its refusals. */
export const secondFactorMessages: Record<'verify' | 'enrol', string> = {
  verify: 'Managing users needs the code from your authenticator app: this session was signed in with the password alone.',
  enrol: 'Managing users needs an authenticator app: administrators must set one up first (Settings, Authenticator).',
};
