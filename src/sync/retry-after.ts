/**
 * Retry-After on the sync path. supabase-js hands a caller a response's status and body
 * but not its headers, so the device's client fetches through `fetchNotingRetryAfter`,
 * which notes a failed response's Retry-After against the request's AbortSignal; the
 * transport gives every call a signal of its own and reads the note back when the call
 * failed. A client built without this fetch simply reports no Retry-After.
 */
import { serviceLimits } from '../domain/limits.ts';

const notes = new WeakMap<AbortSignal, number>();

/**
 * A Retry-After value in milliseconds: delay-seconds or an HTTP date, never negative,
 * and at most serviceLimits.maxRetryAfterSeconds so a wrong header cannot stop syncing
 * for good. Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // An HTTP date names its day and month; anything else (`-5`) is not a date here.
    const date = /^[A-Za-z]{3},/.test(text) ? Date.parse(text) : Number.NaN;
    if (Number.isNaN(date)) return undefined;
    ms = date - now;
  }
  return Math.min(Math.max(0, ms), serviceLimits.maxRetryAfterSeconds * 1000);
}

/** A fetch that notes the Retry-After of every failed response against the request's signal. */
export function fetchNotingRetryAfter(base: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const signal = init?.signal;
    if (!response.ok && signal) {
      const wait = parseRetryAfter(response.headers.get('Retry-After'), Date.now());
      if (wait !== undefined) notes.set(signal, wait);
    }
    return response;
  };
}

/** The Retry-After, in milliseconds, of the failed response to the request made with `signal`. */
export function retryAfterOf(signal: AbortSignal): number | undefined {
  return notes.get(signal);
}
