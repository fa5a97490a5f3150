import { describe, expect, it } from 'vitest';
import { addressGroup } from '../../../supabase/local/auth/address-group.ts';
import { SignInThrottle } from '../../../supabase/local/auth/rate-limit.ts';

const settings = { freeFailures: 3, firstDelayMs: 1000, maxDelayMs: 8000, addressFailures: 10, windowMs: 60_000 };

describe('SignInThrottle', () => {
  it('lets a few failures through, then doubles the wait per failure of the pair, up to the maximum', () => {
    let now = 0;
    const throttle = new SignInThrottle(settings, () => now);
    const waits: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      now += throttle.waitMs('a@x.io', '1.1.1.1'); // a patient guesser waits exactly as asked
      waits.push(throttle.waitMs('a@x.io', '1.1.1.1'));
      throttle.recordFailure('a@x.io', '1.1.1.1');
    }
    // Before each attempt: free, free, free, then 1 s, 2 s, 4 s, 8 s, 8 s after the previous failure.
    expect(waits).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(throttle.waitMs('a@x.io', '1.1.1.1')).toBe(8000);
    const fresh = new SignInThrottle(settings, () => now);
    const asked: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      fresh.recordFailure('b@x.io', '1.1.1.1');
      asked.push(fresh.waitMs('b@x.io', '1.1.1.1'));
    }
    expect(asked).toEqual([0, 0, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('never holds back the same e-mail from another address, nor another e-mail from the same address', () => {
    const throttle = new SignInThrottle(settings, () => 0);
    for (let i = 0; i < 9; i += 1) throttle.recordFailure('owner@x.io', '6.6.6.6');
    expect(throttle.waitMs('owner@x.io', '6.6.6.6')).toBeGreaterThan(0);
    expect(throttle.waitMs('owner@x.io', '10.0.0.1')).toBe(0);
    expect(throttle.waitMs('colleague@x.io', '6.6.6.6')).toBe(0);
  });

  it('forgets a pair on success and after the window', () => {
    let now = 0;
    const throttle = new SignInThrottle(settings, () => now);
    for (let i = 0; i < 5; i += 1) throttle.recordFailure('a@x.io', '1.1.1.1');
    throttle.recordSuccess('a@x.io', '1.1.1.1');
    expect(throttle.waitMs('a@x.io', '1.1.1.1')).toBe(0);
    for (let i = 0; i < 5; i += 1) throttle.recordFailure('a@x.io', '1.1.1.1');
    now = 60_001;
    expect(throttle.waitMs('a@x.io', '1.1.1.1')).toBe(0);
  });

  it('stops an address flooding across many e-mails at its ceiling, and only that address', () => {
    let now = 0;
    const throttle = new SignInThrottle(settings, () => now);
    for (let i = 0; i < 10; i += 1) throttle.recordFailure(`user${i}@x.io`, '9.9.9.9');
    expect(throttle.waitMs('fresh@x.io', '9.9.9.9')).toBe(60_000);
    expect(throttle.waitMs('fresh@x.io', '8.8.8.8')).toBe(0);
    now = 30_000;
    expect(throttle.waitMs('fresh@x.io', '9.9.9.9')).toBe(30_000);
    now = 60_001;
    expect(throttle.waitMs('fresh@x.io', '9.9.9.9')).toBe(0);
  });
});

describe('addressGroup', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:0:0:0:9', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('counts %s as %s', (address, group) => {
    expect(addressGroup(address)).toBe(group);
  });

  it('makes the flood ceiling hold across the addresses of one IPv6 network', () => {
    const throttle = new SignInThrottle(settings, () => 0);
    for (let i = 0; i < 10; i += 1) throttle.recordFailure(`user${i}@x.io`, `2001:db8:1:2::${i + 1}`);
    expect(throttle.waitMs('fresh@x.io', '2001:db8:1:2::ffff')).toBeGreaterThan(0);
    expect(throttle.waitMs('fresh@x.io', '2001:db8:1:3::1')).toBe(0);
  });
});
