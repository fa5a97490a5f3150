import { describe, expect, it } from 'vitest';
import { authLimits } from '../../../src/domain/limits.ts';
import { resolveAuthSettings } from '../../../supabase/local/auth/settings.ts';

describe('Auth settings', () => {
  it('default to the limits table', () => {
    expect(resolveAuthSettings({}, {})).toMatchObject({
      accessTokenSeconds: authLimits.accessTokenSeconds,
      refreshTokenReuseSeconds: 10,
      sessionInactivitySeconds: 30 * 24 * 3600,
    });
  });

  it('take the environment over the defaults, and a caller\'s overrides over both', () => {
    const env = {
      LOCAL_SUPABASE_JWT_EXPIRY: '300',
      LOCAL_SUPABASE_REFRESH_TOKEN_REUSE_INTERVAL: '0',
      LOCAL_SUPABASE_SESSION_INACTIVITY_TIMEOUT: '86400',
    };
    expect(resolveAuthSettings({}, env)).toMatchObject({ accessTokenSeconds: 300, refreshTokenReuseSeconds: 0, sessionInactivitySeconds: 86400 });
    expect(resolveAuthSettings({ accessTokenSeconds: 5, throttle: { freeFailures: 1 } }, env)).toMatchObject({
      accessTokenSeconds: 5,
      throttle: { freeFailures: 1, maxDelayMs: authLimits.signInMaxDelayMs },
    });
  });

  it.each([['LOCAL_SUPABASE_JWT_EXPIRY', '0'], ['LOCAL_SUPABASE_JWT_EXPIRY', '1h'], ['LOCAL_SUPABASE_REFRESH_TOKEN_REUSE_INTERVAL', '-1']])(
    'refuse %s=%s with a message naming the variable',
    (name, value) => {
      expect(() => resolveAuthSettings({}, { [name]: value })).toThrow(name);
    },
  );
});
