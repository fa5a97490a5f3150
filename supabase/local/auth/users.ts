/**
 * auth.users as the Auth API shows it: the stored row with its identities, and the JSON
 * a client receives (GoTrue's User model). Rows are read as jsonb so timestamps look the
 * same on PGlite and PostgreSQL. E-mail addresses must pass both the product's rule
 * (src/domain/credentials.ts) and GoTrue's format check, with GoTrue's messages.
 */
import { metadataTooLarge, normaliseEmail, passwordProblem } from '../../../src/domain/credentials.ts';
import { authLimits } from '../../../src/domain/limits.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { FactorRow } from './factors.ts';
import { factorJson, factorsSelect } from './factors.ts';
import { hashPassword } from './passwords.ts';

export type IdentityRow = {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
  email: string | null;
};

export type UserRow = {
  id: string;
  aud: string;
  role: string;
  email: string | null;
  phone: string | null;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  invited_at: string | null;
  confirmation_token: string | null;
  confirmation_sent_at: string | null;
  recovery_token: string | null;
  recovery_sent_at: string | null;
  email_change: string | null;
  email_change_token_new: string | null;
  email_change_token_current: string | null;
  email_change_sent_at: string | null;
  email_change_confirm_status: number | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  banned_until: string | null;
  deleted_at: string | null;
  is_anonymous: boolean;
  identities: IdentityRow[];
  /** Every MFA factor, verified or not, oldest first. */
  factors: FactorRow[];
};

/** A user row with its identities and MFA factors, as jsonb text-free JSON. */
export const userSelect = `to_jsonb(u) || jsonb_build_object('identities', coalesce(
  (select jsonb_agg(to_jsonb(i) order by i.created_at, i.id) from auth.identities i where i.user_id = u.id), '[]'::jsonb),
  'factors', ${factorsSelect})`;

export async function findUser(db: Queryable, by: { id: string } | { email: string }): Promise<UserRow | null> {
  const { rows } = await db.query<{ u: UserRow | string }>(
    'id' in by
      ? `select ${userSelect} as u from auth.users u where u.id = $1::uuid and u.deleted_at is null`
      : `select ${userSelect} as u from auth.users u where lower(u.email) = lower($1) and u.deleted_at is null`,
    ['id' in by ? by.id : by.email],
  );
  const value = rows[0]?.u;
  if (!value) return null;
  return typeof value === 'string' ? (JSON.parse(value) as UserRow) : value;
}

function identityJson(identity: IdentityRow) {
  return {
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data,
    provider: identity.provider,
    last_sign_in_at: identity.last_sign_in_at ?? undefined,
    created_at: identity.created_at,
    updated_at: identity.updated_at,
    email: identity.email ?? undefined,
  };
}

export function userJson(user: UserRow) {
  return {
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email ?? '',
    email_confirmed_at: user.email_confirmed_at,
    invited_at: user.invited_at ?? undefined,
    phone: user.phone ?? '',
    confirmation_sent_at: user.confirmation_sent_at ?? undefined,
    confirmed_at: user.email_confirmed_at,
    recovery_sent_at: user.recovery_sent_at ?? undefined,
    new_email: user.email_change || undefined,
    email_change_sent_at: user.email_change ? (user.email_change_sent_at ?? undefined) : undefined,
    last_sign_in_at: user.last_sign_in_at,
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    identities: (user.identities ?? []).map(identityJson),
    // As GoTrue: left out when the user has none.
    ...(user.factors?.length ? { factors: user.factors.map(factorJson) } : {}),
    created_at: user.created_at,
    updated_at: user.updated_at,
    banned_until: user.banned_until ?? undefined,
    is_anonymous: user.is_anonymous,
  };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Shallow merge as Auth does it: a key set to null is removed. */
export function mergeMetadata(current: Record<string, unknown>, change: unknown): Record<string, unknown> {
  if (!isObject(change)) return current;
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(change)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export type CreateUserInput = {
  email?: unknown;
  password?: unknown;
  email_confirm?: unknown;
  user_metadata?: unknown;
  app_metadata?: unknown;
  /** An invited user: no password, `invited_at` set. */
  invited?: boolean;
};

export type AuthFailure = { ok: false; status: number; code: string; message: string; extra?: Record<string, unknown> };

const failure = (status: number, code: string, message: string): AuthFailure => ({ ok: false, status, code, message });

/** GoTrue's format check (badoux/checkmail's pattern): ASCII local part, dotted labels of letters, digits and dashes. */
const gotrueFormat = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** The e-mail as stored and looked up (see normaliseEmail), or GoTrue's refusal of it (validateEmail in mail.go). */
export function checkEmail(raw: unknown): { ok: true; email: string } | AuthFailure {
  if (raw === undefined || raw === null || raw === '') return failure(400, 'validation_failed', 'An email address is required');
  if (typeof raw === 'string' && raw.length > 255) return failure(400, 'validation_failed', 'An email address is too long');
  const checked = normaliseEmail(raw);
  if (!checked.ok || !gotrueFormat.test(checked.email)) {
    return failure(400, 'validation_failed', 'Unable to validate email address: invalid format');
  }
  return checked;
}

/** GoTrue's weak_password reply, with its reasons; null when the password is acceptable or absent. */
export function checkPassword(password: unknown): AuthFailure | null {
  if (password === undefined) return null;
  const problem = passwordProblem(password);
  if (!problem) return null;
  return {
    ok: false,
    status: 422,
    code: 'weak_password',
    message: problem.message,
    extra: problem.reason === 'too_long' ? undefined : { weak_password: { reasons: [problem.reason] } },
  };
}

export function checkMetadataSize(metadata: unknown): AuthFailure | null {
  if (!metadataTooLarge(metadata)) return null;
  return failure(400, 'validation_failed', `User metadata cannot be larger than ${authLimits.userMetadataBytes} bytes`);
}

/** GoTrue's DuplicateEmailMsg. */
export const duplicateEmail = (): AuthFailure =>
  failure(422, 'email_exists', 'A user with this email address has already been registered');

/** Creates a user and its e-mail identity (GoTrue's identity_data: sub, email, email_verified, phone_verified). */
export async function createUser(db: Database, input: CreateUserInput): Promise<{ ok: true; user: UserRow } | AuthFailure> {
  const checked = checkEmail(input.email);
  if (!checked.ok) return checked;
  const { email } = checked;
  const weak = checkPassword(input.password);
  if (weak) return weak;
  // Stored as given (null values kept); only updates treat null as "remove the key".
  const userMetadata = isObject(input.user_metadata) ? input.user_metadata : {};
  const appMetadata = mergeMetadata({ provider: 'email', providers: ['email'] }, input.app_metadata);
  const tooLarge = checkMetadataSize(userMetadata) ?? checkMetadataSize(appMetadata);
  if (tooLarge) return tooLarge;
  if (await findUser(db, { email })) return duplicateEmail();
  const hash = typeof input.password === 'string' ? await hashPassword(input.password) : null;
  const confirmed = input.email_confirm === true;
  const id = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `insert into auth.users (instance_id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
         raw_app_meta_data, raw_user_meta_data)
       values ('00000000-0000-0000-0000-000000000000', 'authenticated', 'authenticated', $1, $2,
         case when $3 then now() end, case when $6 then now() end, $4::jsonb, $5::jsonb)
       returning id::text`,
      [email, hash, confirmed, JSON.stringify(appMetadata), JSON.stringify(userMetadata), input.invited === true],
    );
    const userId = rows[0]?.id as string;
    await tx.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider)
       values ($1::text, $2::uuid, jsonb_build_object('sub', $1::text, 'email', $3::text, 'email_verified', $4::boolean,
         'phone_verified', false), 'email')`,
      [userId, userId, email, confirmed],
    );
    return userId;
  });
  const user = await findUser(db, { id });
  if (!user) throw new Error('created user vanished');
  return { ok: true, user };
}

/**
 * An anonymous user (GoTrue's anonymous provider): no e-mail, password or identity, empty
 * app_metadata, `is_anonymous` set; user_metadata as the sign-in's `data`.
 */
export async function createAnonymousUser(db: Database, data: unknown): Promise<{ ok: true; user: UserRow } | AuthFailure> {
  const userMetadata = isObject(data) ? data : {};
  const tooLarge = checkMetadataSize(userMetadata);
  if (tooLarge) return tooLarge;
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (instance_id, aud, role, raw_app_meta_data, raw_user_meta_data, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', 'authenticated', 'authenticated', '{}'::jsonb, $1::jsonb, true)
     returning id::text`,
    [JSON.stringify(userMetadata)],
  );
  const user = await findUser(db, { id: rows[0]?.id as string });
  if (!user) throw new Error('created user vanished');
  return { ok: true, user };
}
