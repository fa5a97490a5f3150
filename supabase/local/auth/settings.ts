/**
 * Session and sign-in settings of the embedded Auth: the defaults of src/domain/limits.ts,
 * overridden by environment variables where set (documented in the README), and by a
 * test's options last.
 */
import { authLimits } from '../../../src/domain/limits.ts';

export type ThrottleSettings = {
  freeFailures: number;
  firstDelayMs: number;
  maxDelayMs: number;
  addressFailures: number;
  windowMs: number;
};

export type AuthSettings = {
  accessTokenSeconds: number;
  refreshTokenReuseSeconds: number;
  /** 0 means sessions never end for inactivity. */
  sessionInactivitySeconds: number;
  throttle: ThrottleSettings;
};

export type AuthSettingsOverrides = Partial<Omit<AuthSettings, 'throttle'>> & { throttle?: Partial<ThrottleSettings> };

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) {
    throw new Error(`${name} must be a whole number of seconds, at least ${minimum} (got "${raw}").`);
  }
  return value;
}

export function authSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): AuthSettings {
  return {
    accessTokenSeconds: seconds(env, 'LOCAL_SUPABASE_JWT_EXPIRY', authLimits.accessTokenSeconds, 1),
    refreshTokenReuseSeconds: seconds(env, 'LOCAL_SUPABASE_REFRESH_TOKEN_REUSE_INTERVAL', authLimits.refreshTokenReuseSeconds, 0),
    sessionInactivitySeconds: seconds(env, 'LOCAL_SUPABASE_SESSION_INACTIVITY_TIMEOUT', authLimits.sessionInactivitySeconds, 0),
    throttle: {
      freeFailures: authLimits.signInFreeFailures,
      firstDelayMs: authLimits.signInFirstDelayMs,
      maxDelayMs: authLimits.signInMaxDelayMs,
      addressFailures: authLimits.signInAddressFailures,
      windowMs: authLimits.signInWindowMs,
    },
  };
}

export function resolveAuthSettings(overrides: AuthSettingsOverrides = {}, env: NodeJS.ProcessEnv = process.env): AuthSettings {
  const base = authSettingsFromEnv(env);
  return { ...base, ...overrides, throttle: { ...base.throttle, ...overrides.throttle } };
}
