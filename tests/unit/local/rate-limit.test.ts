import { describe, expect, it } from 'vitest';
import { SignInRateLimiter } from '../../../supabase/local/auth/rate-limit.ts';

describe('SignInRateLimiter', () => {
  it('blocks an e-mail after its failures, for the rest of the window, and forgets them on success', () => {
    let now = 0;
    const limiter = new SignInRateLimiter({ perEmail: 3, perAddress: 100, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 3; i += 1) limiter.recordFailure('a@x.io', '1.1.1.1');
    expect(limiter.retryAfter('a@x.io', '1.1.1.1')).toBe(60);
    expect(limiter.retryAfter('b@x.io', '1.1.1.1')).toBe(0);
    now = 59_000;
    expect(limiter.retryAfter('a@x.io', '1.1.1.1')).toBe(1);
    now = 60_001;
    expect(limiter.retryAfter('a@x.io', '1.1.1.1')).toBe(0);
    limiter.recordFailure('a@x.io', '1.1.1.1');
    limiter.recordSuccess('a@x.io');
    expect(limiter.retryAfter('a@x.io', '1.1.1.1')).toBe(0);
  });

  it('blocks an address guessing across many e-mails', () => {
    const limiter = new SignInRateLimiter({ perEmail: 100, perAddress: 5, windowMs: 60_000 }, () => 0);
    for (let i = 0; i < 5; i += 1) limiter.recordFailure(`user${i}@x.io`, '9.9.9.9');
    expect(limiter.retryAfter('fresh@x.io', '9.9.9.9')).toBeGreaterThan(0);
    expect(limiter.retryAfter('fresh@x.io', '8.8.8.8')).toBe(0);
  });
});
