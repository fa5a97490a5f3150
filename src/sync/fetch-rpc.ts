/**
 * Calls the backend's database functions with plain fetch, as PostgREST expects them
 * (POST /rest/v1/rpc/<name>, JSON arguments, the project's key and the session's token),
 * for the service worker: its background push needs nothing else of supabase-js, and
 * leaving supabase-js out keeps the worker small.
 */
import type { RpcAnswer, RpcCall } from './rpc-transport.ts';
import { sessionChanged } from './rpc-transport.ts';
import { fetchNotingRetryAfter } from './retry-after.ts';

export type FetchRpcOptions = {
  supabaseUrl: string;
  anonKey: string;
  /** The stored session's access token and its user, or null when signed out. */
  credentials: () => Promise<{ token: string; userId: string } | null>;
  fetch?: typeof fetch;
};

export function fetchRpc(options: FetchRpcOptions): RpcCall {
  const doFetch = fetchNotingRetryAfter(options.fetch);
  const base = options.supabaseUrl.replace(/\/$/, '');
  return async (fn, args, signal, asUser): Promise<RpcAnswer> => {
    const credentials = await options.credentials();
    if (!credentials || credentials.userId !== asUser) return sessionChanged();
    const { token } = credentials;
    const response = await doFetch(`${base}/rest/v1/rpc/${encodeURIComponent(fn)}`, {
      method: 'POST',
      headers: { apikey: options.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(args),
      signal,
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null; // Not JSON (a proxy's error page): the status and text say what happened.
    }
    if (response.ok) return { data: body, error: null, status: response.status };
    const error = body && typeof body === 'object' ? (body as { code?: string; message?: string }) : { message: text || `HTTP ${response.status}` };
    return { data: null, error, status: response.status };
  };
}
