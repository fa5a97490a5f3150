/**
 * A user's MFA factors and their challenges in auth.mfa_factors / auth.mfa_challenges, and
 * the JSON hosted Auth shows of a factor (in `GET /user`'s `factors` and the admin API).
 * Rows are read as jsonb so timestamps look the same on PGlite and PostgreSQL.
 */
import type { Queryable } from '../db/database.ts';
import type { CeremonyState, StoredCredential } from './webauthn.ts';

export type FactorRow = {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: 'totp' | 'webauthn' | 'phone';
  status: 'unverified' | 'verified';
  created_at: string;
  updated_at: string;
  secret: string | null;
  phone: string | null;
  last_challenged_at: string | null;
  /** A verified WebAuthn factor's credential (never sent to a client). */
  web_authn_credential?: StoredCredential | null;
  /** The model of the authenticator that made it, as it says (all zeros when it does not). */
  web_authn_aaguid?: string | null;
};

export type ChallengeRow = {
  id: string;
  factor_id: string;
  /** Seconds since the challenge was issued, by the database's clock. */
  age_seconds: number;
  created_epoch: number;
  verified_at: string | null;
  ip_address: string;
  /** A WebAuthn challenge's ceremony state. */
  web_authn_session_data: CeremonyState | null;
};

/** GoTrue's Factor as JSON: the secret and the WebAuthn credential never leave the server. */
export function factorJson(factor: FactorRow) {
  return {
    id: factor.id,
    created_at: factor.created_at,
    updated_at: factor.updated_at,
    status: factor.status,
    ...(factor.friendly_name ? { friendly_name: factor.friendly_name } : {}),
    factor_type: factor.factor_type,
    phone: factor.phone ?? '',
    last_challenged_at: factor.last_challenged_at,
    ...(factor.web_authn_aaguid ? { web_authn_aaguid: factor.web_authn_aaguid } : {}),
  };
}

/** The factors of a user, oldest first, as a jsonb array expression over the user row `u`. */
export const factorsSelect = `coalesce((select jsonb_agg(to_jsonb(f) order by f.created_at, f.id)
  from auth.mfa_factors f where f.user_id = u.id), '[]'::jsonb)`;

function parse<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

export async function userFactors(db: Queryable, userId: string): Promise<FactorRow[]> {
  const { rows } = await db.query<{ f: FactorRow | string }>(
    'select to_jsonb(f) as f from auth.mfa_factors f where f.user_id = $1::uuid order by f.created_at, f.id',
    [userId],
  );
  return rows.map((row) => parse(row.f));
}

export async function ownedFactor(db: Queryable, userId: string, factorId: string): Promise<FactorRow | null> {
  const { rows } = await db.query<{ f: FactorRow | string }>(
    'select to_jsonb(f) as f from auth.mfa_factors f where f.id = $1::uuid and f.user_id = $2::uuid',
    [factorId, userId],
  );
  return rows[0] ? parse(rows[0].f) : null;
}

export async function factorChallenge(db: Queryable, factorId: string, challengeId: string): Promise<ChallengeRow | null> {
  const { rows } = await db.query<ChallengeRow>(
    `select id::text, factor_id::text, host(ip_address) as ip_address, verified_at::text, web_authn_session_data,
            extract(epoch from (now() - created_at))::float8 as age_seconds,
            extract(epoch from created_at)::bigint as created_epoch
     from auth.mfa_challenges where id = $1::uuid and factor_id = $2::uuid`,
    [challengeId, factorId],
  );
  const row = rows[0];
  if (!row) return null;
  return { ...row, age_seconds: Number(row.age_seconds), created_epoch: Number(row.created_epoch), web_authn_session_data: parse(row.web_authn_session_data) };
}

/**
 * Deletes factors never verified and never challenged that were enrolled longer ago than
 * `seconds` (GoTrue does this before every enrolment, for every user).
 */
export async function deleteExpiredFactors(db: Queryable, seconds: number): Promise<void> {
  await db.query(
    `delete from auth.mfa_factors f where f.status <> 'verified'
       and not exists (select 1 from auth.mfa_challenges c where c.factor_id = f.id)
       and f.created_at + make_interval(secs => $1::float8) < now()`,
    [seconds],
  );
}

/**
 * After a factor is removed: the sessions it raised to aal2 lose its method from their
 * `amr` and go back to aal1 (GoTrue's DowngradeSessionsToAAL1).
 */
export async function downgradeSessions(db: Queryable, factor: Pick<FactorRow, 'id' | 'user_id' | 'factor_type'>): Promise<void> {
  await db.query(
    `delete from auth.mfa_amr_claims c using auth.sessions s
     where c.session_id = s.id and s.factor_id = $1::uuid and c.authentication_method = $2`,
    [factor.id, amrMethodOf(factor.factor_type)],
  );
  await db.query(`update auth.sessions set aal = 'aal1', factor_id = null where user_id = $1::uuid and factor_id = $2::uuid`, [
    factor.user_id,
    factor.id,
  ]);
}

/** The `amr` method a factor type proves (GoTrue's names). */
export function amrMethodOf(type: FactorRow['factor_type']): string {
  return type === 'totp' ? 'totp' : `mfa/${type}`;
}

export const secondFactorMethods = new Set(['totp', 'mfa/phone', 'mfa/webauthn']);
