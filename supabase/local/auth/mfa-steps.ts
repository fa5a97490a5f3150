/**
 * The steps every kind of second factor shares (mfa.ts for authenticator apps,
 * mfa-webauthn.ts for security keys): the request's context and caller, the factor's
 * name and GoTrue's checks before a new one, the challenge still alive, and the session
 * raised to aal2 once a factor is proven.
 */
import { isIP } from 'node:net';
import { authLimits } from '../../../src/domain/limits.ts';
import type { Queryable } from '../db/database.ts';
import { isPostgresError } from '../db/database.ts';
import type { Reply } from '../http.ts';
import type { ChallengeRow, FactorRow } from './factors.ts';
import { amrMethodOf, deleteExpiredFactors, factorChallenge, userFactors } from './factors.ts';
import type { MfaGuard } from './mfa-guard.ts';
import type { SessionContext } from './sessions.ts';
import { addSessionMethod, rotateRefreshToken, sessionJson } from './sessions.ts';
import type { MfaSettings } from './settings.ts';
import type { UserRow } from './users.ts';
import { findUser } from './users.ts';

export type Fail = (status: number, code: string, message: string, extra?: Record<string, unknown>) => Reply;

export type Ok = (body: unknown) => Reply;

export type MfaContext = {
  session: SessionContext;
  guard: MfaGuard;
  settings: MfaSettings;
  /** Where the app lives: its host is the issuer an authenticator app shows unless the enrolment names one. */
  siteUrl: string;
  ok: Ok;
  fail: Fail;
};

/** The signed-in caller: the user row and the session the access token names. */
export type Caller = { user: UserRow; sessionId: string; sessionAal: string };

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The client address as Postgres' inet reads it (an IPv4 address seen through IPv6 as itself). */
export function clientInet(address: string): string {
  const plain = address.replace(/%.*$/, '').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
  return isIP(plain) ? plain : '0.0.0.0';
}

export function rateLimited(fail: Fail, waitMs: number, message = 'Request rate limit reached'): Reply {
  const reply = fail(429, 'over_request_rate_limit', message);
  return { ...reply, headers: { ...reply.headers, 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) } };
}

export const nameConflict = (fail: Fail, name: string) =>
  fail(422, 'mfa_factor_name_conflict', `A factor with the friendly name ${JSON.stringify(name)} for this user already exists`);

/** A text field that may be left out (as ''), or null when it is not text. */
export function optionalText(value: unknown): string | null {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : null;
}

/** The factor's friendly name, or the refusal of a name that is not text or too long. */
export function friendlyNameOf(mfa: MfaContext, body: Record<string, unknown>): string | Reply {
  const friendlyName = optionalText(body.friendly_name);
  if (friendlyName === null) return mfa.fail(400, 'bad_json', 'Could not parse request body as JSON: friendly_name and issuer must be strings');
  // GoTrue has no bound here; the QR code has one, and the names are shown on screens.
  if (friendlyName.length > authLimits.mfaFactorNameMaxLength) {
    return mfa.fail(400, 'validation_failed', `friendly_name must be at most ${authLimits.mfaFactorNameMaxLength} characters`);
  }
  return friendlyName;
}

/** GoTrue's validateFactors: abandoned enrolments go, then the name, the count and the session's level are checked. */
export async function refuseNewFactor(mfa: MfaContext, caller: Caller, friendlyName: string): Promise<Reply | null> {
  const { fail } = mfa;
  const db = mfa.session.db;
  await deleteExpiredFactors(db, mfa.settings.unverifiedFactorSeconds);
  const factors = await userFactors(db, caller.user.id);
  if (factors.some((factor) => (factor.friendly_name ?? '') === friendlyName)) {
    return nameConflict(fail, friendlyName);
  }
  const verified = factors.filter((factor) => factor.status === 'verified').length;
  if (factors.length >= mfa.settings.maxFactors || verified >= mfa.settings.maxFactors) {
    return fail(422, 'too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue');
  }
  if (verified > 0 && caller.sessionAal !== 'aal2') return fail(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
  return null;
}

/** Stores a new unverified factor: its id, or the refusal when another enrolment took the name meanwhile. */
export async function insertFactor(mfa: MfaContext, caller: Caller, friendlyName: string, type: FactorRow['factor_type'], secret: string | null): Promise<string | Reply> {
  try {
    const { rows } = await mfa.session.db.query<{ id: string }>(
      `insert into auth.mfa_factors (user_id, friendly_name, factor_type, status, secret)
       values ($1::uuid, $2, $3::auth.factor_type, 'unverified', $4) returning id::text`,
      [caller.user.id, friendlyName, type, secret],
    );
    return rows[0]?.id ?? '';
  } catch (error) {
    // Two enrolments with one name at once: the unique index decides, as the check above would.
    if (isPostgresError(error) && error.code === '23505') return nameConflict(mfa.fail, friendlyName);
    throw error;
  }
}

export function disabledType(mfa: MfaContext, factor: FactorRow): Reply | null {
  if (factor.factor_type === 'phone') return mfa.fail(422, 'mfa_phone_verify_not_enabled', 'MFA verification is disabled for Phone');
  if (factor.factor_type === 'webauthn' && !mfa.settings.webauthnEnabled) {
    return mfa.fail(422, 'mfa_webauthn_verify_not_enabled', 'MFA verification is disabled for WebAuthn');
  }
  return null;
}

/**
 * GoTrue's validateChallenge: the challenge of this factor named in the request, not yet
 * answered, asked for from this address, and still alive (an expired one is deleted).
 */
export async function liveChallenge(mfa: MfaContext, address: string, factor: FactorRow, challengeId: string): Promise<ChallengeRow | Reply> {
  const { fail } = mfa;
  const db = mfa.session.db;
  const challenge = await factorChallenge(db, factor.id, challengeId);
  if (!challenge) return fail(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
  const sameAddress = (await db.query<{ same: boolean }>('select $1::inet = $2::inet as same', [challenge.ip_address, address])).rows[0]?.same;
  if (challenge.verified_at || !sameAddress) return fail(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
  if (challenge.age_seconds > mfa.settings.challengeSeconds) {
    await db.query('delete from auth.mfa_challenges where id = $1::uuid', [challenge.id]);
    return fail(422, 'mfa_challenge_expired', `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`);
  }
  return challenge;
}

/**
 * The session proven with `factor` (GoTrue's updateMFASessionAndClaims): its method joins
 * the session's amr, the session is aal2 and remembers the factor, its refresh token
 * rotates; the person's sessions still at aal1 end and their other unverified enrolments
 * of the type go. Answers the new refresh token.
 */
export async function raiseToAal2(tx: Queryable, caller: Caller, factor: Pick<FactorRow, 'id' | 'factor_type'>): Promise<string> {
  await addSessionMethod(tx, caller.sessionId, amrMethodOf(factor.factor_type));
  await tx.query(`update auth.sessions set aal = 'aal2', factor_id = $2::uuid, updated_at = now() where id = $1::uuid`, [caller.sessionId, factor.id]);
  const issued = await rotateRefreshToken(tx, caller.user.id, caller.sessionId);
  await tx.query(`delete from auth.sessions where user_id = $1::uuid and aal < 'aal2'`, [caller.user.id]);
  await tx.query(`delete from auth.mfa_factors where user_id = $1::uuid and status = 'unverified' and factor_type = $2`, [caller.user.id, factor.factor_type]);
  return issued;
}

/** The verify answer: the session's new tokens and the user as they are now. */
export async function aal2Session(mfa: MfaContext, caller: Caller, refreshToken: string) {
  const user = (await findUser(mfa.session.db, { id: caller.user.id })) ?? caller.user;
  return sessionJson(mfa.session, user, caller.sessionId, refreshToken);
}
