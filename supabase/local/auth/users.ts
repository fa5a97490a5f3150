/**
 * auth.users as the Auth API shows it: the stored row, and the JSON a client receives.
 * Rows are read as jsonb so timestamps look the same on PGlite and PostgreSQL.
 */
import { metadataTooLarge, normaliseEmail, passwordProblem } from '../../../src/domain/credentials.ts';
import { authLimits } from '../../../src/domain/limits.ts';
import type { Database, Queryable } from '../db/database.ts';
import { hashPassword } from './passwords.ts';

export type UserRow = {
  id: string;
  aud: string;
  role: string;
  email: string | null;
  phone: string | null;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  banned_until: string | null;
  deleted_at: string | null;
  is_anonymous: boolean;
};

export async function findUser(db: Queryable, by: { id: string } | { email: string }): Promise<UserRow | null> {
  const { rows } = await db.query<{ u: UserRow | string }>(
    'id' in by
      ? 'select to_jsonb(u) as u from auth.users u where u.id = $1::uuid and u.deleted_at is null'
      : 'select to_jsonb(u) as u from auth.users u where lower(u.email) = lower($1) and u.deleted_at is null',
    ['id' in by ? by.id : by.email],
  );
  const value = rows[0]?.u;
  if (!value) return null;
  return typeof value === 'string' ? (JSON.parse(value) as UserRow) : value;
}

export function userJson(user: UserRow) {
  return {
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email ?? '',
    email_confirmed_at: user.email_confirmed_at,
    phone: user.phone ?? '',
    confirmed_at: user.email_confirmed_at,
    last_sign_in_at: user.last_sign_in_at,
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    identities: [],
    created_at: user.created_at,
    updated_at: user.updated_at,
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
};

export type AuthFailure = { ok: false; status: number; code: string; message: string; extra?: Record<string, unknown> };

const invalidEmail: AuthFailure = {
  ok: false,
  status: 400,
  code: 'validation_failed',
  message: 'Unable to validate email address: invalid format',
};

/** The e-mail as stored and looked up (see normaliseEmail), or the reply refusing it. */
export function checkEmail(raw: unknown): { ok: true; email: string } | AuthFailure {
  const checked = normaliseEmail(raw);
  return checked.ok ? checked : invalidEmail;
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
  return {
    ok: false,
    status: 400,
    code: 'validation_failed',
    message: `User metadata cannot be larger than ${authLimits.userMetadataBytes} bytes`,
  };
}

export async function createUser(
  db: Database,
  input: CreateUserInput,
): Promise<{ ok: true; user: UserRow } | AuthFailure> {
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
  if (await findUser(db, { email })) {
    return {
      ok: false,
      status: 422,
      code: 'email_exists',
      message: 'A user with this email address has already been registered',
    };
  }
  const hash = typeof input.password === 'string' ? await hashPassword(input.password) : null;
  const id = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `insert into auth.users (instance_id, aud, role, email, encrypted_password, email_confirmed_at,
         raw_app_meta_data, raw_user_meta_data)
       values ('00000000-0000-0000-0000-000000000000', 'authenticated', 'authenticated', $1, $2,
         case when $3 then now() end, $4::jsonb, $5::jsonb)
       returning id::text`,
      [email, hash, input.email_confirm === true, JSON.stringify(appMetadata), JSON.stringify(userMetadata)],
    );
    const userId = rows[0]?.id as string;
    await tx.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider)
       values ($1::text, $2::uuid, jsonb_build_object('sub', $1::text, 'email', $3::text), 'email')`,
      [userId, userId, email],
    );
    return userId;
  });
  const user = await findUser(db, { id });
  if (!user) throw new Error('created user vanished');
  return { ok: true, user };
}
