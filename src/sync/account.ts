/**
 * Who is signed in on this device, read from the session stored in the device database
 * (no network needed, so an offline start is signed in at once) and kept current as
 * auth-js, the sync engine or another tab rewrites it. The store and the admin flag come
 * from app_metadata, which only the service role writes; user_metadata holds names.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { createStore } from 'zustand/vanilla';
import type { AppDatabase } from '../data/app-database.ts';
import { authStorageKey } from '../data/device.ts';
import { observeStoredSession } from '../data/observe.ts';
import type { AccountMetadata } from '../domain/people.ts';
import { isAdminFlag, storeIdOf } from '../domain/people.ts';
import type { Authenticator } from '../domain/second-factor.ts';
import { authenticatorsOf, awaitsSecondStep, securityKeysOf, tokenClaim } from '../domain/second-factor.ts';
import { createAuthenticatorApi } from './authenticator-api.ts';
import { errorSentences, readableError } from './errors.ts';

export type Account = {
  userId: string;
  email: string;
  storeId: string | null;
  isAdmin: boolean;
  profile: AccountMetadata & { lastName?: unknown };
  /** The account's authenticator apps (MFA factors), as the session on the device lists them. */
  authenticators: Authenticator[];
  /** The account's security keys and passkeys (WebAuthn factors), likewise. */
  securityKeys: Authenticator[];
  /** Whether this session has proven an authenticator (aal2) or the password alone (aal1). */
  aal: 'aal1' | 'aal2';
  /** The account has a verified authenticator app or key and this session has not proven one: the code or the key is asked first. */
  secondStepNeeded: boolean;
};

export type AccountState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'signed-in'; account: Account; authError: string | null };

type StoredUser = { id?: string; email?: string; app_metadata?: AccountMetadata; user_metadata?: AccountMetadata; factors?: unknown };

export const accountErrors = {
  noStore: 'Your account is not properly configured. Please contact your administrator to assign you to a store.',
  signIn: 'Failed to sign in. Please check your credentials.',
  /** The session carries no permissions at all (no app_metadata object): nothing can be decided from it. */
  accountPermissions: 'Unable to load your account permissions. This may be due to recent security updates.',
  /** A store is assigned but its id cannot be read: not the same as no store, and no administrator fix is "assign one". */
  userPermissions: 'Unable to load your user permissions: the store assigned to this account cannot be read. Please contact your administrator.',
} as const;

/** Why a signed-in account cannot use the app, or null when it can. */
function permissionProblem(metadata: unknown): string | null {
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return accountErrors.accountPermissions;
  const assigned = (metadata as AccountMetadata).store_id;
  if (storeIdOf(metadata as AccountMetadata)) return null;
  return assigned === undefined || assigned === null || assigned === '' ? accountErrors.noStore : accountErrors.userPermissions;
}

export function accountFromSession(text: string | null): AccountState {
  if (!text) return { status: 'signed-out' };
  let session: { access_token?: unknown; user?: StoredUser } | undefined;
  try {
    session = JSON.parse(text) as typeof session;
  } catch {
    return { status: 'signed-out' };
  }
  const user = session?.user;
  if (!user?.id) return { status: 'signed-out' };
  const storeId = storeIdOf(user.app_metadata && typeof user.app_metadata === 'object' ? user.app_metadata : undefined);
  return {
    status: 'signed-in',
    account: {
      userId: user.id,
      email: user.email ?? '',
      storeId,
      isAdmin: isAdminFlag(user.app_metadata?.is_admin),
      profile: user.user_metadata ?? {},
      authenticators: authenticatorsOf(user.factors),
      securityKeys: securityKeysOf(user.factors),
      aal: tokenClaim(session?.access_token, 'aal') === 'aal2' ? 'aal2' : 'aal1',
      secondStepNeeded: awaitsSecondStep(session),
    },
    authError: permissionProblem(user.app_metadata),
  };
}

/** `client`: supabase-js once loaded (only signing in needs it; who is signed in is read from the device). */
export function createAccountService(db: AppDatabase, client: Promise<Pick<SupabaseClient, 'auth'>>) {
  const state = createStore<AccountState>(() => ({ status: 'loading' }));
  const stop = observeStoredSession(db, authStorageKey, (text) => state.setState(accountFromSession(text), true));
  return {
    state,
    /** Signs in; answers the message to show when it did not work. */
    async signIn(email: string, password: string): Promise<string | null> {
      // Offline, auth-js would wait on its own retries for minutes with "Logging in..." on screen.
      if (globalThis.navigator?.onLine === false) return errorSentences.unreachable;
      try {
        const { error } = await (await client).auth.signInWithPassword({ email: email.trim(), password });
        if (!error) return null;
        // The server's answer ("Invalid login credentials") as it is; a request that never got one, in words.
        const readable = readableError(error).text;
        return readable === errorSentences.unreachable || readable === errorSentences.timeout ? readable : error.message || accountErrors.signIn;
      } catch {
        return accountErrors.signIn;
      }
    },
    /** Enrolling, verifying and removing authenticator apps (authenticator-api.ts). */
    authenticator: createAuthenticatorApi(client),
    stop,
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
