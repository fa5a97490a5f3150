/**
 * The limits one running backend applies: the defaults of src/domain/limits.ts, then the
 * operator's environment variables, then what the caller passes (tests use small numbers).
 */
import type { ServiceLimits } from '../../src/domain/limits.ts';
import { serviceLimits } from '../../src/domain/limits.ts';

/** The limits an operator may change without editing code, and the variable for each. */
export const limitVariables = {
  statementTimeoutMs: 'LOCAL_SUPABASE_STATEMENT_TIMEOUT_MS',
  dbQueueLength: 'LOCAL_SUPABASE_DB_QUEUE_LENGTH',
} as const satisfies Partial<Record<keyof ServiceLimits, string>>;

export function resolveLimits(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServiceLimits> = {}): ServiceLimits {
  const limits: ServiceLimits = { ...serviceLimits };
  for (const [key, variable] of Object.entries(limitVariables) as Array<[keyof ServiceLimits, string]>) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    if (!/^\d{1,9}$/.test(raw.trim()) || Number(raw) < 1) {
      throw new Error(`${variable} must be a whole number of at least 1, not "${raw}".`);
    }
    limits[key] = Number(raw);
  }
  return { ...limits, ...overrides };
}
