/**
 * What keeps an authenticator's six-digit code from being guessed by someone who already
 * has the password (docs/security.md, "Multi-factor sign-in"):
 *
 * - Each client address (an IPv6 /64 counts as one) may ask for challenges, and
 *   separately verify codes, in a burst and then at a steady rate, as GoTrue limits both
 *   MFA endpoints per address.
 * - Each factor, from whatever address, may be checked a few times freely; every further
 *   check must wait, the wait doubling up to a bound. A check is counted *before* the code
 *   is compared (a right code forgets the count), so a burst of concurrent guesses cannot
 *   share the free checks.
 *
 * State is in memory and bounded like the sign-in counts, and forgotten on restart.
 */
import { addressGroup } from './address-group.ts';
import { TokenBuckets } from './rate-limit.ts';
import type { MfaSettings } from './settings.ts';

const trackedFactors = 50_000;

type FactorChecks = { checks: number; last: number };

export class MfaGuard {
  private readonly challenges: TokenBuckets;
  private readonly verifications: TokenBuckets;
  private readonly factors = new Map<string, FactorChecks>();

  constructor(
    private readonly settings: MfaSettings,
    private readonly now: () => number = Date.now,
  ) {
    const intervalMs = Math.round(60_000 / settings.requestsPerMinute);
    this.challenges = new TokenBuckets(settings.requestBurst, intervalMs, now);
    this.verifications = new TokenBuckets(settings.requestBurst, intervalMs, now);
  }

  /** Milliseconds this address must wait before asking for a challenge, or 0 (its request is counted). */
  admitChallenge(address: string): number {
    return this.challenges.take(addressGroup(address));
  }

  /** Milliseconds this address must wait before verifying a code, or 0 (its request is counted). */
  admitVerification(address: string): number {
    return this.verifications.take(addressGroup(address));
  }

  /** Milliseconds before `factorId` may be checked again, or 0: then this check is counted as a wrong code until `forget`. */
  reserveCheck(factorId: string): number {
    const now = this.now();
    let state = this.factors.get(factorId);
    if (state && now - state.last > this.settings.wrongCodeWindowMs) state = undefined;
    const checks = state?.checks ?? 0;
    if (state && checks >= this.settings.freeWrongCodes) {
      const doublings = Math.min(30, checks - this.settings.freeWrongCodes);
      const wait = state.last + Math.min(this.settings.maxDelayMs, this.settings.firstDelayMs * 2 ** doublings) - now;
      if (wait > 0) return wait;
    }
    this.factors.delete(factorId); // re-inserted last: insertion order is the eviction order
    this.factors.set(factorId, { checks: checks + 1, last: now });
    if (this.factors.size > trackedFactors) {
      const oldest = this.factors.keys().next();
      if (!oldest.done) this.factors.delete(oldest.value);
    }
    return 0;
  }

  /** The code was right (or the factor is gone): its checks start afresh. */
  forget(factorId: string): void {
    this.factors.delete(factorId);
  }
}
