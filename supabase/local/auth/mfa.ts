/**
 * Multi-factor authentication (`/auth/v1/factors`) as GoTrue's mfa.go: a signed-in user
 * enrols a TOTP factor (its secret, otpauth address and QR code are shown once), asks
 * for a challenge and answers it with the app's code, which verifies the factor and
 * raises the session to aal2 (a new access and refresh token); a verified factor is
 * removed only from an aal2 session. Verifying ends the user's other aal1 sessions and
 * deletes factors left unverified; enrolling deletes abandoned enrolments. WebAuthn
 * factors (security keys, passkeys) are mfa-webauthn.ts, off unless turned on as in
 * GoTrue; phone factors are answered as GoTrue answers when they are turned off (its
 * default): docs/backend-api.md. Limits: mfa-guard.ts and supabase/local/service-limits.ts.
 */
import { isIP } from 'node:net';
import { authLimits } from '../../../src/domain/limits.ts';
import type { Queryable } from '../db/database.ts';
import { isPostgresError } from '../db/database.ts';
import type { Reply } from '../http.ts';
import type { StackRequest } from '../request.ts';
import type { ChallengeRow, FactorRow } from './factors.ts';
import { amrMethodOf, deleteExpiredFactors, downgradeSessions, factorChallenge, factorJson, ownedFactor, userFactors } from './factors.ts';
import type { MfaGuard } from './mfa-guard.ts';
import { challengeWebauthn, enrollWebauthn, verifyWebauthn } from './mfa-webauthn.ts';
import { qrSvg } from './qr-svg.ts';
import type { SessionContext } from './sessions.ts';
import { addSessionMethod, rotateRefreshToken, sessionJson } from './sessions.ts';
import type { MfaSettings } from './settings.ts';
import { newTotpSecret, totpMatches, totpUri } from './totp.ts';
import type { UserRow } from './users.ts';
import { findUser } from './users.ts';

export type Fail = (status: number, code: string, message: string, extra?: Record<string, unknown>) => Reply;
type Ok = (body: unknown) => Reply;

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

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The client address as Postgres' inet reads it (an IPv4 address seen through IPv6 as itself). */
export function clientInet(address: string): string {
  const plain = address.replace(/%.*$/, '').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
  return isIP(plain) ? plain : '0.0.0.0';
}

export function rateLimited(fail: Fail, waitMs: number, message = 'Request rate limit reached'): Reply {
  const reply = fail(429, 'over_request_rate_limit', message);
  return { ...reply, headers: { ...reply.headers, 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) } };
}

const nameConflict = (fail: Fail, name: string) =>
  fail(422, 'mfa_factor_name_conflict', `A factor with the friendly name ${JSON.stringify(name)} for this user already exists`);

function optionalText(value: unknown): string | null {
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

async function enrollTotp(mfa: MfaContext, caller: Caller, body: Record<string, unknown>): Promise<Reply> {
  const { fail, ok } = mfa;
  const friendlyName = friendlyNameOf(mfa, body);
  const issuerAsked = optionalText(body.issuer);
  if (typeof friendlyName !== 'string') return friendlyName;
  if (issuerAsked === null) return fail(400, 'bad_json', 'Could not parse request body as JSON: friendly_name and issuer must be strings');
  if (issuerAsked.length > authLimits.mfaIssuerMaxLength) {
    return fail(400, 'validation_failed', `issuer must be at most ${authLimits.mfaIssuerMaxLength} characters`);
  }
  const issuer = issuerAsked || new URL(mfa.siteUrl).host;
  const refused = await refuseNewFactor(mfa, caller, friendlyName);
  if (refused) return refused;
  const secret = newTotpSecret();
  const uri = totpUri(issuer, caller.user.email ?? '', secret);
  const id = await insertFactor(mfa, caller, friendlyName, 'totp', secret);
  if (typeof id !== 'string') return id;
  return ok({ id, type: 'totp', friendly_name: friendlyName, totp: { qr_code: qrSvg(uri), secret, uri } });
}

export async function enrollFactor(mfa: MfaContext, caller: Caller, body: Record<string, unknown>): Promise<Reply> {
  switch (body.factor_type) {
    case 'totp':
      return enrollTotp(mfa, caller, body);
    case 'phone':
      return mfa.fail(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
    case 'webauthn':
      if (!mfa.settings.webauthnEnabled) return mfa.fail(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
      return enrollWebauthn(mfa, caller, body);
    default:
      return mfa.fail(400, 'validation_failed', 'factor_type needs to be totp, phone, or webauthn');
  }
}

/** A factor of the caller's named in the path, or GoTrue's refusal (loadFactor). */
export async function loadFactor(db: Queryable, userId: string, factorId: string, fail: Fail): Promise<FactorRow | Reply> {
  if (!uuidPattern.test(factorId)) return fail(404, 'validation_failed', 'factor_id must be an UUID');
  return (await ownedFactor(db, userId, factorId)) ?? fail(404, 'mfa_factor_not_found', 'Factor not found');
}

export function disabledType(mfa: MfaContext, factor: FactorRow): Reply | null {
  if (factor.factor_type === 'phone') return mfa.fail(422, 'mfa_phone_verify_not_enabled', 'MFA verification is disabled for Phone');
  if (factor.factor_type === 'webauthn' && !mfa.settings.webauthnEnabled) {
    return mfa.fail(422, 'mfa_webauthn_verify_not_enabled', 'MFA verification is disabled for WebAuthn');
  }
  return null;
}

export async function challengeFactor(mfa: MfaContext, req: StackRequest, caller: Caller, factor: FactorRow): Promise<Reply> {
  const wait = mfa.guard.admitChallenge(req.address);
  if (wait > 0) return rateLimited(mfa.fail, wait);
  const disabled = disabledType(mfa, factor);
  if (disabled) return disabled;
  if (factor.factor_type === 'webauthn') return challengeWebauthn(mfa, clientInet(req.address), caller, factor);
  const challenge = await mfa.session.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; created: number }>(
      `insert into auth.mfa_challenges (factor_id, ip_address) values ($1::uuid, $2::inet)
       returning id::text, extract(epoch from created_at)::bigint as created`,
      [factor.id, clientInet(req.address)],
    );
    await tx.query('update auth.mfa_factors set last_challenged_at = now() where id = $1::uuid', [factor.id]);
    return rows[0] as { id: string; created: number };
  });
  return mfa.ok({ id: challenge.id, type: factor.factor_type, expires_at: Number(challenge.created) + mfa.settings.challengeSeconds });
}

export async function verifyFactor(mfa: MfaContext, req: StackRequest, caller: Caller, factor: FactorRow, body: Record<string, unknown>): Promise<Reply> {
  const { fail } = mfa;
  const db = mfa.session.db;
  const wait = mfa.guard.admitVerification(req.address);
  if (wait > 0) return rateLimited(fail, wait);
  if ((body.code !== undefined && body.code !== null && typeof body.code !== 'string') || (body.challenge_id !== undefined && body.challenge_id !== null && typeof body.challenge_id !== 'string')) {
    return fail(400, 'bad_json', 'Could not parse request body as JSON: code and challenge_id must be strings');
  }
  const challengeId = typeof body.challenge_id === 'string' && body.challenge_id !== '' ? body.challenge_id : '00000000-0000-0000-0000-000000000000';
  if (!uuidPattern.test(challengeId)) return fail(400, 'bad_json', 'Could not parse request body as JSON: challenge_id must be a UUID');
  // GoTrue asks no code of a WebAuthn factor: the browser's signed answer replaces it.
  if (factor.factor_type === 'webauthn') return verifyWebauthn(mfa, clientInet(req.address), caller, factor, challengeId, body);
  const code = typeof body.code === 'string' ? body.code : '';
  if (code === '') return fail(400, 'validation_failed', 'Code needs to be non-empty');
  const disabled = disabledType(mfa, factor);
  if (disabled) return disabled;

  const challenge = await liveChallenge(mfa, clientInet(req.address), factor, challengeId);
  if (!('id' in challenge)) return challenge;
  const guardWait = mfa.guard.reserveCheck(factor.id);
  if (guardWait > 0) {
    const seconds = Math.ceil(guardWait / 1000);
    return rateLimited(fail, guardWait, `Too many wrong codes for this authenticator. Try again in ${seconds} seconds.`);
  }
  if (!totpMatches(factor.secret ?? '', code)) return fail(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
  mfa.guard.forget(factor.id);

  const refreshToken = await db.transaction(async (tx) => {
    // The challenge is spent once: a second verification of it is refused above.
    const spent = await tx.query('update auth.mfa_challenges set verified_at = now() where id = $1::uuid and verified_at is null', [challenge.id]);
    if (spent.affectedRows === 0) return null;
    await tx.query(`update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1::uuid and status <> 'verified'`, [factor.id]);
    return raiseToAal2(tx, caller, factor);
  });
  if (!refreshToken) return fail(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
  return mfa.ok(await aal2Session(mfa, caller, refreshToken));
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

export async function unenrollFactor(mfa: MfaContext, caller: Caller, factor: FactorRow): Promise<Reply> {
  if (factor.status === 'verified' && caller.sessionAal !== 'aal2') {
    return mfa.fail(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
  }
  await removeFactor(mfa.session.db, factor);
  mfa.guard.forget(factor.id);
  return mfa.ok({ id: factor.id });
}

export async function removeFactor(db: SessionContext['db'], factor: FactorRow): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('delete from auth.mfa_factors where id = $1::uuid', [factor.id]);
    await downgradeSessions(tx, factor);
  });
}

/** `/admin/users/<id>/factors[/<factor id>]`: list, remove (the recovery for a lost phone) and rename, as GoTrue's admin API. */
export async function handleAdminFactors(db: SessionContext['db'], req: StackRequest, userId: string, rest: string, body: Record<string, unknown>, fail: Fail, ok: Ok): Promise<Reply> {
  const user = await findUser(db, { id: userId });
  if (!user) return fail(404, 'user_not_found', 'User not found');
  if (rest === '' || rest === '/') {
    return req.method === 'GET' ? ok(user.factors.map(factorJson)) : fail(405, 'method_not_allowed', 'Method not allowed');
  }
  const loaded = await loadFactor(db, user.id, rest.replace(/^\/|\/$/g, ''), fail);
  if (!('id' in loaded)) return loaded;
  if (req.method === 'DELETE') {
    await removeFactor(db, loaded);
    return ok(factorJson(loaded));
  }
  if (req.method === 'PUT') {
    const name = optionalText(body.friendly_name);
    if (name === null) return fail(400, 'bad_json', 'Could not parse request body as JSON: friendly_name must be a string');
    if (name.length > authLimits.mfaFactorNameMaxLength) return fail(400, 'validation_failed', `friendly_name must be at most ${authLimits.mfaFactorNameMaxLength} characters`);
    if (name !== '') {
      try {
        const { rows } = await db.query<{ updated_at: string }>(
          'update auth.mfa_factors set friendly_name = $2, updated_at = now() where id = $1::uuid returning to_jsonb(updated_at) #>> \'{}\' as updated_at',
          [loaded.id, name],
        );
        return ok(factorJson({ ...loaded, friendly_name: name, updated_at: rows[0]?.updated_at ?? loaded.updated_at }));
      } catch (error) {
        if (isPostgresError(error) && error.code === '23505') return nameConflict(fail, name);
        throw error;
      }
    }
    return ok(factorJson(loaded));
  }
  return fail(405, 'method_not_allowed', 'Method not allowed');
}
