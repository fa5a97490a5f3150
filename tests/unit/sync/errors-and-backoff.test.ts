import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../src/sync/backoff.ts';
import { serviceLimits } from '../../../src/domain/limits.ts';
import { classifyFailure } from '../../../src/sync/errors.ts';
import { fetchNotingRetryAfter, parseRetryAfter, retryAfterOf } from '../../../src/sync/retry-after.ts';

describe('classifyFailure', () => {
  it.each([
    [0, undefined, 'transient'],
    [500, 'XX000', 'transient'],
    [503, '', 'transient'],
    [429, 'over_request_rate_limit', 'transient'],
    [408, '', 'transient'],
    [401, 'PGRST303', 'auth'],
    [401, 'PGRST301', 'auth'],
    [401, '', 'auth'],
    [401, '42501', 'permanent'],
    [403, '42501', 'permanent'],
    [400, '22P02', 'permanent'],
    [400, '22003', 'permanent'],
    [400, '23514', 'permanent'],
    [409, '23505', 'permanent'],
    [400, 'PGRST102', 'permanent'],
    [404, 'PGRST202', 'permanent'],
    [413, 'PGRST413', 'permanent'],
    [503, 'PGRST003', 'transient'],
    [503, '57014', 'transient'],
  ])('status %i with %s is %s', (status, code, kind) => {
    expect(classifyFailure(status, code)).toBe(kind);
  });
});

describe('backoffDelay', () => {
  const policy = { baseMs: 1_000, capMs: 60_000 };
  it('spans half to all of the exponential ceiling, capped', () => {
    expect([1, 2, 3, 7, 12].map((n) => backoffDelay(n, policy, () => 0))).toEqual([500, 1_000, 2_000, 30_000, 30_000]);
    expect([1, 2, 3, 7, 12].map((n) => backoffDelay(n, policy, () => 0.999999))).toEqual([1_000, 2_000, 4_000, 60_000, 60_000]);
  });
});

describe('Retry-After', () => {
  const now = Date.UTC(2026, 10, 23, 9, 0, 0);
  it.each([
    ['2', 2_000],
    [' 0 ', 0],
    ['Mon, 23 Nov 2026 09:00:30 GMT', 30_000],
    ['Mon, 23 Nov 2026 08:59:00 GMT', 0],
    ['999999', serviceLimits.maxRetryAfterSeconds * 1000],
    ['-5', undefined],
    ['soon', undefined],
    [null, undefined],
  ])('%s is %s ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it('is noted against the signal of a failed request only', async () => {
    const answers = [
      new Response('{}', { status: 503, headers: { 'Retry-After': '3' } }),
      new Response('{}', { status: 200, headers: { 'Retry-After': '3' } }),
    ];
    const fetchNoting = fetchNotingRetryAfter(async () => answers.shift() as Response);
    const failed = new AbortController().signal;
    const succeeded = new AbortController().signal;
    await fetchNoting('http://server/a', { signal: failed });
    await fetchNoting('http://server/b', { signal: succeeded });
    expect(retryAfterOf(failed)).toBe(3_000);
    expect(retryAfterOf(succeeded)).toBeUndefined();
  });
});
