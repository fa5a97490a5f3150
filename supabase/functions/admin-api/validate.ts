/**
 * Payload rules of the admin function (docs/screens.md, "Users in the admin area"), as
 * pure functions so they are tested without a server. Each returns the cleaned value or a
 * message the admin screen can show as it is. E-mail and password follow the product's
 * one rule (src/domain/credentials.ts), which the embedded Auth applies too; the function
 * reads it from its copy in _shared, since a deployed function holds nothing from outside
 * supabase/functions.
 */
import { normaliseEmail, passwordProblem } from '../_shared/domain/credentials.ts';
import { authLimits } from '../_shared/domain/limits.ts';

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export type UserProfile = {
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  store_id: string | null;
  is_admin: boolean;
};

export type NewUser = { email: string; password: string; profile: UserProfile };
export type UserChange = { id: string; password?: string; profile?: UserProfile };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const minimumPasswordLength = authLimits.passwordMinLength;

const fail = <T>(error: string): Result<T> => ({ ok: false, error });
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && uuidPattern.test(value);
}

function optionalName(value: unknown, label: string): Result<string | null> {
  if (value === undefined || value === null) return { ok: true, value: null };
  if (typeof value !== 'string') return fail(`${label} must be text.`);
  const trimmed = value.trim();
  if (trimmed.length > 100) return fail(`${label} must be at most 100 characters.`);
  return { ok: true, value: trimmed === '' ? null : trimmed };
}

/** The same password rule as Auth's, worded for the admin screen. */
function checkPassword(value: unknown): Result<string> {
  const problem = passwordProblem(value);
  if (problem?.reason === 'length') return fail(`Password must be at least ${minimumPasswordLength} characters.`);
  if (problem?.reason === 'too_long') return fail(`Password must be at most ${authLimits.passwordMaxBytes} bytes.`);
  if (problem?.reason === 'pwned') return fail('This password is one of the first an attacker would try: choose another.');
  return { ok: true, value: value as string };
}

/** The same e-mail rule as Auth's (normalised, invisible characters refused). */
function checkEmail(value: unknown): Result<string> {
  const checked = normaliseEmail(value);
  if (checked.ok) return { ok: true, value: checked.email };
  return fail(checked.reason === 'invisible' ? 'The e-mail address contains invisible characters.' : 'A valid e-mail address is required.');
}

export function checkProfile(metadata: unknown): Result<UserProfile> {
  const source = isRecord(metadata) ? metadata : {};
  const firstName = optionalName(source.firstName, 'First name');
  if (!firstName.ok) return firstName;
  const lastName = optionalName(source.lastName, 'Last name');
  if (!lastName.ok) return lastName;
  const displayName = optionalName(source.displayName, 'Display name');
  if (!displayName.ok) return displayName;

  const store = source.store_id;
  if (store !== undefined && store !== null && store !== '' && !isUuid(store)) {
    return fail('Store must be a valid store id or none.');
  }
  const admin = source.is_admin;
  if (admin !== undefined && typeof admin !== 'boolean' && admin !== 'true' && admin !== 'false') {
    return fail('The admin flag must be true or false.');
  }
  return {
    ok: true,
    value: {
      firstName: firstName.value,
      lastName: lastName.value,
      displayName: displayName.value,
      store_id: isUuid(store) ? store.toLowerCase() : null,
      is_admin: admin === true || admin === 'true',
    },
  };
}

export function checkNewUser(payload: unknown): Result<NewUser> {
  if (!isRecord(payload)) return fail('The request needs a payload.');
  const email = checkEmail(payload.email);
  if (!email.ok) return email;
  const password = checkPassword(payload.password);
  if (!password.ok) return password;
  const profile = checkProfile(payload.user_metadata);
  if (!profile.ok) return profile;
  return { ok: true, value: { email: email.value, password: password.value, profile: profile.value } };
}

export function checkUserChange(payload: unknown): Result<UserChange> {
  if (!isRecord(payload) || !isUuid(payload.id)) return fail('A valid user id is required.');
  const attributes = isRecord(payload.attributes) ? payload.attributes : {};
  if ('email' in attributes) return fail('The e-mail address cannot be changed.');
  const change: UserChange = { id: payload.id };
  if (attributes.password !== undefined && attributes.password !== '') {
    const password = checkPassword(attributes.password);
    if (!password.ok) return password;
    change.password = password.value;
  }
  if (attributes.user_metadata !== undefined) {
    const profile = checkProfile(attributes.user_metadata);
    if (!profile.ok) return profile;
    change.profile = profile.value;
  }
  return { ok: true, value: change };
}

export function checkUserId(payload: unknown): Result<string> {
  if (!isRecord(payload) || !isUuid(payload.id)) return fail('A valid user id is required.');
  return { ok: true, value: payload.id };
}

/** An admin flag counts as boolean true or the string "true" (docs/screens.md). */
export function isAdminFlag(value: unknown): boolean {
  return value === true || value === 'true';
}
