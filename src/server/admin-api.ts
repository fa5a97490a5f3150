/**
 * The admin area's server calls, which need a connection by nature: users through the
 * admin-api edge function, stores through the REST API (row-level security lets only
 * admins write them). Each call answers data or a message the screen can show.
 */
import { FunctionsHttpError } from '@supabase/supabase-js';
import type { Tables } from '../data/database.types.ts';
import { errorText } from '../sync/errors.ts';
import type { DeviceClient } from '../sync/device-client.ts';

export type AdminUser = {
  id: string;
  email: string | null;
  email_confirmed_at: string | null;
  user_metadata: { firstName?: string | null; lastName?: string | null; displayName?: string | null; store_id?: string | null; is_admin?: unknown };
  app_metadata: { store_id?: string | null; is_admin?: unknown };
  /** The person's authenticator apps (never their secrets). */
  factors?: Array<{ id: string; friendly_name: string | null; status: string; created_at: string | null }>;
};

/** The group's security settings (security_settings()). */
export type SecuritySettings = { admins_need_mfa: boolean };

/** A store as the admin area lists it: the columns it reads of public.stores. */
export type Store = Pick<Tables<'stores'>, 'id' | 'name' | 'subdomain'>;

export type UserProfileInput = {
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  store_id: string | null;
  is_admin: boolean;
};

/** What deleting a store takes with it: accounts assigned to it, and its live rows per table (store_deletion_impact). */
export type StoreDeletionImpact = { users: number; rows: Record<string, number> };

/** A refusal says `secondFactor` when the session lacks the authenticator code the action needs (insufficient_aal). */
export type Outcome<T> = { ok: true; data: T } | { ok: false; message: string; secondFactor?: boolean };

async function functionError(error: unknown): Promise<{ message: string; secondFactor?: boolean }> {
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    try {
      const body = (await response.json()) as { error?: string; code?: string };
      // The admin API's own answers ("Unauthorized: Admin access required") are already sentences.
      if (body.error) return { message: errorText({ status: response.status, message: body.error }), secondFactor: body.code === 'insufficient_aal' };
    } catch {
      // fall through to the status
    }
    return { message: `API call failed with status ${response.status}` };
  }
  return { message: errorText(error) };
}

/** The database's refusal for want of the second factor: its message and what to do. */
function restError(error: { message: string; code?: string; details?: string | null; hint?: string | null }): { message: string; secondFactor?: boolean } {
  if (error.code === '42501' && error.details === 'insufficient_aal') return { message: [error.message, error.hint].filter(Boolean).join(' '), secondFactor: true };
  return { message: errorText(error) };
}

export function createAdminApi(client: DeviceClient) {
  async function call<T>(action: string, payload?: unknown): Promise<Outcome<T>> {
    try {
      const { data, error } = await client.functions.invoke('admin-api', { body: { action, payload } });
      if (error) return { ok: false, ...(await functionError(error)) };
      const body = data as T & { error?: string };
      if (body && typeof body === 'object' && 'error' in body && body.error) return { ok: false, message: body.error };
      return { ok: true, data: body };
    } catch (error) {
      return { ok: false, ...(await functionError(error)) };
    }
  }
  type RestError = { message: string; code?: string; details?: string | null; hint?: string | null };
  const rest = async <T>(run: () => PromiseLike<{ data: unknown; error: RestError | null }>): Promise<Outcome<T>> => {
    try {
      const { data, error } = await run();
      return error ? { ok: false, ...restError(error) } : { ok: true, data: data as T };
    } catch (error) {
      return { ok: false, message: errorText(error) };
    }
  };

  return {
    listUsers: async (): Promise<Outcome<AdminUser[]>> => {
      const result = await call<{ users: AdminUser[] }>('listUsers');
      return result.ok ? { ok: true, data: result.data.users } : result;
    },
    createUser: (email: string, password: string, profile: UserProfileInput) =>
      call<{ user: AdminUser }>('createUser', { email, password, email_confirm: true, user_metadata: profile }),
    updateUser: (id: string, profile: UserProfileInput, password?: string) =>
      call<{ user: AdminUser }>('updateUserById', { id, attributes: { user_metadata: profile, ...(password ? { password } : {}) } }),
    deleteUser: (id: string) => call<{ success: boolean }>('deleteUser', { id }),
    /** Removes every authenticator of a person (a lost phone): they sign in with the password alone until they add one. */
    deleteUserFactors: (id: string) => call<{ removed: number }>('deleteUserFactors', { id }),
    securitySettings: () => rest<SecuritySettings>(() => client.rpc('security_settings')),
    setAdminsNeedMfa: async (on: boolean): Promise<Outcome<SecuritySettings>> => {
      const result = await call<{ settings: SecuritySettings }>('setAdminsNeedMfa', { on });
      return result.ok ? { ok: true, data: result.data.settings } : result;
    },
    listStores: () => rest<Store[]>(() => client.from('stores').select('id, name, subdomain').order('name')),
    addStore: (name: string, subdomain: string | null) => rest<Store[]>(() => client.from('stores').insert({ name, subdomain }).select()),
    updateStore: (id: string, name: string, subdomain: string | null) =>
      rest<Store[]>(() => client.from('stores').update({ name, subdomain }).eq('id', id).select()),
    storeDeletionImpact: (id: string) => rest<StoreDeletionImpact>(() => client.rpc('store_deletion_impact', { p_store: id })),
    deleteStore: (id: string) => rest<Store[]>(() => client.from('stores').delete().eq('id', id).select()),
  };
}

export type AdminApi = ReturnType<typeof createAdminApi>;
