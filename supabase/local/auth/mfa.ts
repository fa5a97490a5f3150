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
import { authLimits } from '../../../src/domain/limits.ts';
import type { Queryable } from '../db/database.ts';
import { isPostgresError } from '../db/database.ts';
import type { Reply } from '../http.ts';
import type { StackRequest } from '../request.ts';
import type { FactorRow } from './factors.ts';
import { downgradeSessions, factorJson, ownedFactor } from './factors.ts';
import type { Caller, Fail, MfaContext, Ok } from './mfa-steps.ts';
import { aal2Session, clientInet, disabledType, friendlyNameOf, insertFactor, liveChallenge, nameConflict, optionalText, raiseToAal2, rateLimited, refuseNewFactor, uuidPattern } from './mfa-steps.ts';
import { challengeWebauthn, enrollWebauthn, verifyWebauthn } from './mfa-webauthn.ts';
import { qrSvg } from './qr-svg.ts';
import type { SessionContext } from './sessions.ts';
import { newTotpSecret, totpMatches, totpUri } from './totp.ts';
import { findUser } from './users.ts';

export type { Caller, MfaContext } from './mfa-steps.ts';

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
