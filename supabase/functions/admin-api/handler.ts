/**
 * The admin edge function: lists, creates, updates and deletes users for admins.
 * It verifies the caller's token and admin flag (from app_metadata, which only the
 * service role writes) before anything else, then acts with the service role. The store
 * and admin flag go to app_metadata (what row-level security trusts) and to
 * user_metadata (what the screens read); so do the person's names, which the database
 * reads from app_metadata alone for who closed a month or changed a figure (a person may
 * rewrite their own user_metadata, never their app_metadata). A caller who has an
 * authenticator app must have proven it in this session (second-factor.ts); an admin
 * removes another person's factors here when they lost their phone, and sets whether
 * every admin must use one.
 */
import { corsHeaders, bearerToken, json } from '../_shared/http.ts';
import type { AuthAdmin, AuthUser } from './auth-admin.ts';
import { AuthApiError } from './auth-admin.ts';
import { secondFactorMessages, secondFactorMissing, tokenAal } from './second-factor.ts';
import type { UserProfile } from './validate.ts';
import { checkNewUser, checkUserChange, checkUserId, isAdminFlag } from './validate.ts';

export type AdminApiDeps = {
  auth: AuthAdmin;
  /** True when a store with this id exists (checked before assigning a user to it). */
  storeExists(id: string): Promise<boolean>;
  /** The group's setting that admins must use an authenticator app (public.security_settings()). */
  adminsNeedMfa(): Promise<boolean>;
  /** Changes that setting, naming the admin who did (public.set_admins_need_mfa). */
  setAdminsNeedMfa(on: boolean, by: string): Promise<{ admins_need_mfa: boolean }>;
};

const maxBodyBytes = 64 * 1024;

function listing(user: AuthUser) {
  return {
    id: user.id,
    email: user.email ?? null,
    email_confirmed_at: user.email_confirmed_at ?? null,
    created_at: user.created_at ?? null,
    last_sign_in_at: user.last_sign_in_at ?? null,
    user_metadata: user.user_metadata ?? {},
    app_metadata: user.app_metadata ?? {},
    // What the admin screen shows of each authenticator; never a secret.
    factors: (user.factors ?? []).map((factor) => ({
      id: factor.id,
      friendly_name: factor.friendly_name ?? null,
      factor_type: factor.factor_type,
      status: factor.status,
      created_at: factor.created_at ?? null,
    })),
  };
}

function metadataFor(profile: UserProfile) {
  return {
    // A null name removes the key (Auth's merge), and the e-mail address is shown instead.
    app_metadata: { store_id: profile.store_id, is_admin: profile.is_admin, firstName: profile.firstName, lastName: profile.lastName, displayName: profile.displayName },
    user_metadata: { ...profile },
  };
}

export function createAdminApiHandler(deps: AdminApiDeps): (req: Request) => Promise<Response> {
  async function checkStore(profile: UserProfile | undefined): Promise<Response | null> {
    if (profile?.store_id && !(await deps.storeExists(profile.store_id))) {
      return json(400, { error: 'The selected store does not exist.' });
    }
    return null;
  }

  async function act(action: unknown, payload: unknown, caller: AuthUser): Promise<Response> {
    switch (action) {
      case 'listUsers': {
        const users = await deps.auth.listUsers();
        return json(200, { users: users.map(listing) });
      }
      case 'createUser': {
        const checked = checkNewUser(payload);
        if (!checked.ok) return json(400, { error: checked.error });
        const { email, password, profile } = checked.value;
        const refused = await checkStore(profile);
        if (refused) return refused;
        const user = await deps.auth.createUser({ email, password, email_confirm: true, ...metadataFor(profile) });
        return json(200, { user: listing(user) });
      }
      case 'updateUserById': {
        const checked = checkUserChange(payload);
        if (!checked.ok) return json(400, { error: checked.error });
        const { id, password, profile } = checked.value;
        const refused = await checkStore(profile);
        if (refused) return refused;
        if (id === caller.id && profile && !profile.is_admin) {
          return json(400, { error: 'You cannot remove your own admin access.' });
        }
        const user = await deps.auth.updateUser(id, {
          ...(password ? { password } : {}),
          ...(profile ? metadataFor(profile) : {}),
        });
        return json(200, { user: listing(user) });
      }
      case 'deleteUserFactors': {
        const checked = checkUserId(payload);
        if (!checked.ok) return json(400, { error: checked.error });
        const user = await deps.auth.getUserById(checked.value);
        for (const factor of user.factors ?? []) await deps.auth.deleteFactor(user.id, factor.id);
        return json(200, { removed: (user.factors ?? []).length });
      }
      case 'setAdminsNeedMfa': {
        const on = (payload as { on?: unknown } | null)?.on;
        if (typeof on !== 'boolean') return json(400, { error: 'The setting must be true or false.' });
        return json(200, { settings: await deps.setAdminsNeedMfa(on, caller.id) });
      }
      case 'deleteUser': {
        const checked = checkUserId(payload);
        if (!checked.ok) return json(400, { error: checked.error });
        if (checked.value === caller.id) return json(400, { error: 'You cannot delete your own account.' });
        await deps.auth.deleteUser(checked.value);
        return json(200, { success: true });
      }
      default:
        return json(400, { error: `Unknown action: ${typeof action === 'string' ? action : typeof action}` });
    }
  }

  return async function handleAdminApi(req: Request): Promise<Response> {
    if (req.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (req.method !== 'POST') return json(405, { error: 'Use POST.' });

    const token = bearerToken(req);
    if (!token) return json(401, { error: 'Not authenticated' });
    let caller: AuthUser;
    try {
      caller = await deps.auth.getUser(token);
    } catch (error) {
      if (error instanceof AuthApiError && error.status < 500) return json(401, { error: 'Not authenticated' });
      throw error;
    }
    if (!isAdminFlag(caller.app_metadata?.is_admin)) {
      return json(403, { error: 'Unauthorized: Admin access required' });
    }
    const missing = secondFactorMissing(tokenAal(token), caller.factors, await deps.adminsNeedMfa());
    if (missing) return json(403, { error: secondFactorMessages[missing], code: 'insufficient_aal' });

    const text = await req.text();
    if (text.length > maxBodyBytes) return json(413, { error: 'The request is too large.' });
    let body: { action?: unknown; payload?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return json(400, { error: 'The request body must be JSON: {"action": ..., "payload": ...}.' });
    }
    if (typeof body !== 'object' || body === null) {
      return json(400, { error: 'The request body must be JSON: {"action": ..., "payload": ...}.' });
    }

    try {
      return await act(body.action, body.payload, caller);
    } catch (error) {
      if (error instanceof AuthApiError) {
        return json(error.status >= 500 ? 502 : error.status, { error: error.message });
      }
      return json(500, { error: error instanceof Error ? error.message : 'Unexpected error' });
    }
  };
}
