/**
 * Retry delays after transient failures: exponential from `baseMs`, capped at `capMs`,
 * with "equal jitter" (half fixed, half random) so many devices coming back after an
 * outage do not retry in step. `random` is injected so tests know the exact delays.
 */
export type BackoffPolicy = { baseMs: number; capMs: number };

export const defaultBackoff: BackoffPolicy = { baseMs: 1_000, capMs: 60_000 };

/** The delay before retry number `attempt` (1 for the first retry). */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const half = ceiling / 2;
  return Math.round(half + random() * half);
}
