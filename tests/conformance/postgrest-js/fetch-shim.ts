/**
 * Setup file of the postgrest-js suite run (run.ts): the suite's clients are written for a
 * Supabase CLI stack at http://localhost:54321, whose gateway lets a request without an
 * API key through as anon. Here each request to that address goes to the embedded backend
 * on its free port instead, with the anon key when the request names no key of its own,
 * as the gateway would; each case's meta counts the requests it sent. Nothing else of a request or its answer is touched. The suite's
 * Jest calls (`jest.fn`, `jest.spyOn`) are Vitest's `vi`, which has the same shape.
 */
import type { RunnerTestCase } from 'vitest';
import { beforeEach, vi } from 'vitest';

const suiteAddress = 'http://localhost:54321';
const backendUrl = process.env.POSTGREST_JS_SUITE_BACKEND_URL;
const anonKey = process.env.POSTGREST_JS_SUITE_ANON_KEY;
if (!backendUrl || !anonKey) throw new Error('run.ts sets POSTGREST_JS_SUITE_BACKEND_URL and POSTGREST_JS_SUITE_ANON_KEY');

(globalThis as unknown as { jest: typeof vi }).jest = vi;

const realFetch = globalThis.fetch;

/** The running case, whose meta counts the requests it sent the backend (run.ts reports the cases that sent any). */
let current: RunnerTestCase | undefined;
beforeEach((context) => {
  current = context.task;
});

function redirected(input: string | URL | Request): string | URL | Request {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith(suiteAddress)) return input;
  const target = `${backendUrl}${url.slice(suiteAddress.length)}`;
  return input instanceof Request ? new Request(target, input) : target;
}

globalThis.fetch = (input: string | URL | Request, init?: RequestInit) => {
  const target = redirected(input);
  if (target === input) return realFetch(input, init);
  if (current) {
    const meta = current.meta as { backendRequests?: number };
    meta.backendRequests = (meta.backendRequests ?? 0) + 1;
  }
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  if (!headers.has('apikey') && !headers.has('authorization')) headers.set('apikey', anonKey);
  return realFetch(target, { ...init, headers });
};
