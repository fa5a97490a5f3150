/**
 * The API gateway's key check, as a hosted project's gateway makes it before Auth, the REST
 * API or Realtime sees a request: every request names one of the project's API keys, in
 * the `apikey` header or an `apikey` query parameter, whatever token it also carries. A
 * client that forgot it, or sent another project's, is refused here as it would be there,
 * rather than working on this machine and failing once hosted (docs/backend-api.md).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from './http.ts';
import { jsonReply } from './http.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compared in constant time: the service-role key is a secret, and how long a comparison takes must not tell how much of a guess was right. */
function isOneOf(keys: readonly string[], presented: string): boolean {
  const guess = digest(presented);
  return keys.reduce((found, key) => timingSafeEqual(digest(key), guess) || found, false);
}

/** The request's API key: the `apikey` header, else the `apikey` query parameter. */
export function presentedApiKey(headers: IncomingHttpHeaders, url: URL): string | null {
  const header = headers.apikey;
  const value = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey');
  return value ? value.trim() : null;
}

/** Null when the request names one of `keys`, else the gateway's refusal (401, its own shape). */
export function apiKeyRefusal(keys: readonly string[], headers: IncomingHttpHeaders, url: URL): Reply | null {
  const presented = presentedApiKey(headers, url);
  if (presented && isOneOf(keys, presented)) return null;
  const body = presented
    ? { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }
    : { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' };
  return jsonReply(401, body);
}
