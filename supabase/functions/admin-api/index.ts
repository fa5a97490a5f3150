/**
 * Entry of the admin-api edge function. On Supabase's Deno runtime this module serves
 * itself; the embedded local stack imports the default export and serves it on Node.
 */
import { requireEnv } from '../_shared/env.ts';
import { authAdmin } from './auth-admin.ts';
import { createAdminApiHandler } from './handler.ts';

function storeExistsVia(supabaseUrl: string, serviceRoleKey: string) {
  return async (id: string): Promise<boolean> => {
    const response = await fetch(
      `${supabaseUrl.replace(/\/$/, '')}/rest/v1/stores?select=id&id=eq.${encodeURIComponent(id)}`,
      { headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` } },
    );
    if (!response.ok) throw new Error(`Could not check the store (${response.status})`);
    return ((await response.json()) as unknown[]).length > 0;
  };
}

function adminsNeedMfaVia(supabaseUrl: string, serviceRoleKey: string) {
  return async (): Promise<boolean> => {
    const response = await fetch(`${supabaseUrl.replace(/\/$/, '')}/rest/v1/rpc/security_settings`, {
      method: 'POST',
      headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    if (!response.ok) throw new Error(`Could not read the security settings (${response.status})`);
    return ((await response.json()) as { admins_need_mfa?: unknown } | null)?.admins_need_mfa === true;
  };
}

function setAdminsNeedMfaVia(supabaseUrl: string, serviceRoleKey: string) {
  return async (on: boolean, by: string): Promise<{ admins_need_mfa: boolean }> => {
    const response = await fetch(`${supabaseUrl.replace(/\/$/, '')}/rest/v1/rpc/set_admins_need_mfa`, {
      method: 'POST',
      headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ p_on: on, p_by: by }),
    });
    if (!response.ok) throw new Error(`Could not change the security settings (${response.status})`);
    return { admins_need_mfa: ((await response.json()) as { admins_need_mfa?: unknown } | null)?.admins_need_mfa === true };
  };
}

const handler = (req: Request): Promise<Response> => {
  // Read per request: the local stack sets the environment after importing the module.
  const url = requireEnv('SUPABASE_URL');
  const serviceRoleKey = requireEnv('SUPABASE_SERVICE_ROLE_KEY');
  return createAdminApiHandler({
    auth: authAdmin(url, serviceRoleKey),
    storeExists: storeExistsVia(url, serviceRoleKey),
    adminsNeedMfa: adminsNeedMfaVia(url, serviceRoleKey),
    setAdminsNeedMfa: setAdminsNeedMfaVia(url, serviceRoleKey),
  })(req);
};

export default handler;

type DenoServe = { serve(handler: (req: Request) => Promise<Response>): unknown };
const deno = (globalThis as { Deno?: DenoServe }).Deno;
if (deno) deno.serve(handler);
