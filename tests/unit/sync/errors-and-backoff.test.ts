import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../src/sync/backoff.ts';
import { classifyFailure } from '../../../src/sync/errors.ts';

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
