/**
 * Security keys and passkeys as MFA factors (`factor_type: "webauthn"`), as GoTrue's
 * mfa.go does them: a factor is enrolled with a name; its first challenge answers the
 * options for `navigator.credentials.create()` and its verification registers the
 * credential (the factor is then verified, the session aal2); later challenges answer the
 * options for `navigator.credentials.get()` listing the person's keys, and a verified
 * signature raises the session to aal2 with `mfa/webauthn` in its amr. The checks
 * themselves are in webauthn.ts. Where this differs from GoTrue (refusals are 422
 * `mfa_verification_failed` with the reason, a challenge gets one try, the signature
 * counter must go forward): docs/backend-api.md.
 */
import { isPostgresError } from '../db/database.ts';
import type { Reply } from '../http.ts';
import type { FactorRow } from './factors.ts';
import { userFactors } from './factors.ts';
import type { Caller, MfaContext } from './mfa-steps.ts';
import { aal2Session, disabledType, friendlyNameOf, insertFactor, liveChallenge, raiseToAal2, rateLimited, refuseNewFactor } from './mfa-steps.ts';
import type { CeremonyState, KnownCredential, StoredCredential } from './webauthn.ts';
import { creationOptions, requestOptions, verifyAssertion, verifyRegistration } from './webauthn.ts';

export async function enrollWebauthn(mfa: MfaContext, caller: Caller, body: Record<string, unknown>): Promise<Reply> {
  const friendlyName = friendlyNameOf(mfa, body);
  if (typeof friendlyName !== 'string') return friendlyName;
  const refused = await refuseNewFactor(mfa, caller, friendlyName);
  if (refused) return refused;
  const id = await insertFactor(mfa, caller, friendlyName, 'webauthn', null);
  if (typeof id !== 'string') return id;
  return mfa.ok({ id, type: 'webauthn', friendly_name: friendlyName });
}

/** The person's registered keys, each with its factor. */
async function knownCredentials(mfa: MfaContext, userId: string): Promise<KnownCredential[]> {
  return (await userFactors(mfa.session.db, userId)).flatMap((factor) =>
    factor.factor_type === 'webauthn' && factor.status === 'verified' && factor.web_authn_credential
      ? [{ factorId: factor.id, credential: factor.web_authn_credential }]
      : [],
  );
}

export async function challengeWebauthn(mfa: MfaContext, address: string, caller: Caller, factor: FactorRow): Promise<Reply> {
  const known = await knownCredentials(mfa, caller.user.id);
  const timeoutMs = mfa.settings.challengeSeconds * 1000;
  const registering = factor.status !== 'verified';
  const { options, state } = registering
    ? creationOptions(mfa.settings.relyingParty, { id: caller.user.id, name: caller.user.email || caller.user.id }, known.map((entry) => entry.credential), timeoutMs)
    : requestOptions(mfa.settings.relyingParty, caller.user.id, known.map((entry) => entry.credential), timeoutMs);
  const challenge = await mfa.session.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; created: number }>(
      `insert into auth.mfa_challenges (factor_id, ip_address, web_authn_session_data) values ($1::uuid, $2::inet, $3::jsonb)
       returning id::text, extract(epoch from created_at)::bigint as created`,
      [factor.id, address, JSON.stringify(state)],
    );
    await tx.query('update auth.mfa_factors set last_challenged_at = now() where id = $1::uuid', [factor.id]);
    return rows[0] as { id: string; created: number };
  });
  return mfa.ok({
    id: challenge.id,
    type: 'webauthn',
    expires_at: Number(challenge.created) + mfa.settings.challengeSeconds,
    webauthn: { type: registering ? 'create' : 'request', credential_options: options },
  });
}

type Answer = { type: 'create' | 'request'; response: Record<string, unknown> };

/** The `webauthn` member of a verification, with GoTrue's refusals of a malformed one. */
function answerOf(mfa: MfaContext, body: Record<string, unknown>): Answer | Reply {
  const given = body.webauthn;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return mfa.fail(400, 'validation_failed', 'WebAuthn config required');
  const { type, credential_response: response } = given as Record<string, unknown>;
  if (type !== 'create' && type !== 'request') return mfa.fail(400, 'validation_failed', 'WebAuthn type must be create or request');
  if (response === undefined || response === null) return mfa.fail(400, 'validation_failed', 'credential_response required');
  if (typeof response !== 'object' || Array.isArray(response)) return mfa.fail(400, 'validation_failed', 'Invalid credential_response');
  return { type, response: response as Record<string, unknown> };
}

/** Thrown inside the transaction when a concurrent request got there first: nothing is written. */
class Overtaken extends Error {}

const refusal = (mfa: MfaContext, reason: string) => mfa.fail(422, 'mfa_verification_failed', `WebAuthn verification failed: ${reason}`);

export async function verifyWebauthn(mfa: MfaContext, address: string, caller: Caller, factor: FactorRow, challengeId: string, body: Record<string, unknown>): Promise<Reply> {
  const disabled = disabledType(mfa, factor);
  if (disabled) return disabled;
  const answer = answerOf(mfa, body);
  if (!('type' in answer)) return answer;
  const challenge = await liveChallenge(mfa, address, factor, challengeId);
  if (!('id' in challenge)) return challenge;
  const state: CeremonyState | null = challenge.web_authn_session_data;
  if (!state) return refusal(mfa, 'the challenge has no WebAuthn ceremony');
  const registering = factor.status !== 'verified';
  if (answer.type !== (registering ? 'create' : 'request')) {
    return refusal(mfa, registering ? 'this challenge registers a new key (type create)' : 'this challenge signs in with a registered key (type request)');
  }
  const wait = mfa.guard.reserveCheck(factor.id);
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    return rateLimited(mfa.fail, wait, `Too many failed attempts with this security key. Try again in ${seconds} seconds.`);
  }
  const db = mfa.session.db;
  const limits = mfa.settings.webauthn;
  const rp = mfa.settings.relyingParty;
  const known = registering ? [] : await knownCredentials(mfa, caller.user.id);
  const verdict = registering ? verifyRegistration(answer.response, state, rp, limits) : verifyAssertion(answer.response, state, rp, known, limits);
  if (!verdict.ok) {
    // One try per challenge: whatever was wrong, the next attempt starts a new ceremony.
    await db.query('delete from auth.mfa_challenges where id = $1::uuid', [challenge.id]);
    return refusal(mfa, verdict.reason);
  }
  mfa.guard.forget(factor.id);
  try {
    const refreshToken = await db.transaction(async (tx) => {
      // Spent as GoTrue spends it: deleted, so an answer sent twice finds no challenge.
      const spent = await tx.query('delete from auth.mfa_challenges where id = $1::uuid', [challenge.id]);
      if (spent.affectedRows === 0) throw new Overtaken();
      let proven: Pick<FactorRow, 'id' | 'factor_type'> = factor;
      if ('credential' in verdict) {
        const stored = await tx.query(
          `update auth.mfa_factors set status = 'verified', web_authn_credential = $2::jsonb, web_authn_aaguid = $3::uuid, updated_at = now()
           where id = $1::uuid and status = 'unverified'`,
          [factor.id, JSON.stringify(verdict.credential satisfies StoredCredential), verdict.aaguid],
        );
        if (stored.affectedRows === 0) throw new Overtaken();
      } else {
        const before = known.find((entry) => entry.factorId === verdict.factorId)?.credential.authenticator.signCount ?? 0;
        // The counter moves only from the value checked: two answers at once cannot both count.
        const counted = await tx.query(
          `update auth.mfa_factors set web_authn_credential = jsonb_set(web_authn_credential, '{authenticator,signCount}', to_jsonb($2::bigint)), updated_at = now()
           where id = $1::uuid and status = 'verified' and (web_authn_credential #>> '{authenticator,signCount}')::bigint = $3::bigint`,
          [verdict.factorId, verdict.signCount, before],
        );
        if (counted.affectedRows === 0) throw new Overtaken();
        // The session remembers the key that signed, so removing that key lowers it again.
        proven = { id: verdict.factorId, factor_type: 'webauthn' };
      }
      return raiseToAal2(tx, caller, proven);
    });
    return mfa.ok(await aal2Session(mfa, caller, refreshToken));
  } catch (error) {
    if (error instanceof Overtaken) return mfa.fail(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
    // The credential is already another factor's (the unique index on its id).
    if (isPostgresError(error) && error.code === '23505') return refusal(mfa, 'this security key is already registered');
    throw error;
  }
}
