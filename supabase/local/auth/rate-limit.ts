/**
 * Sign-in throttling that slows guessing without locking anyone out.
 *
 * Failures are counted per e-mail *and* client address: after a few free failures, each
 * further attempt of that pair must wait, the wait doubling up to a bounded maximum. A
 * guesser on one address is slowed to a crawl, while the owner signing in from another
 * address (or a colleague behind the same dealership NAT, with their own e-mail) is never
 * held back by it. Each address also has a generous ceiling of failures per window, which
 * only a flood across many e-mails reaches (an IPv6 /64 counts as one address). A
 * success forgets the pair's failures.
 *
 * State is in memory and bounded: the oldest entries are dropped past `maxEntries`, so
 * an attacker inventing e-mails and addresses cannot grow it without limit.
 */
import { addressGroup } from './address-group.ts';
import type { ThrottleSettings } from './settings.ts';

type PairState = { failures: number; lastFailure: number };

const maxEntries = 50_000;

function remember<K, V>(map: Map<K, V>, key: K, value: V, limit = maxEntries): void {
  map.delete(key); // re-inserted at the end: Map order is the eviction order
  map.set(key, value);
  if (map.size > limit) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}

export class SignInThrottle {
  private readonly pairs = new Map<string, PairState>();
  private readonly addresses = new Map<string, number[]>();

  constructor(
    private readonly settings: ThrottleSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until this e-mail may try again from this address; 0 when it may now. */
  waitMs(email: string, address: string): number {
    return Math.max(this.pairWait(email, address), this.addressWait(addressGroup(address)));
  }

  recordFailure(email: string, address: string): void {
    const now = this.now();
    const key = this.pairKey(email, address);
    const previous = this.livePair(key);
    remember(this.pairs, key, { failures: (previous?.failures ?? 0) + 1, lastFailure: now });
    const group = addressGroup(address);
    const recent = this.liveAddress(group);
    recent.push(now);
    // Only the newest `addressFailures` matter for the ceiling.
    remember(this.addresses, group, recent.slice(-this.settings.addressFailures));
  }

  recordSuccess(email: string, address: string): void {
    this.pairs.delete(this.pairKey(email, address));
  }

  private pairKey(email: string, address: string): string {
    return `${address}\u0000${email}`;
  }

  private livePair(key: string): PairState | undefined {
    const state = this.pairs.get(key);
    if (state && this.now() - state.lastFailure > this.settings.windowMs) {
      this.pairs.delete(key);
      return undefined;
    }
    return state;
  }

  private liveAddress(address: string): number[] {
    const cutoff = this.now() - this.settings.windowMs;
    const recent = (this.addresses.get(address) ?? []).filter((time) => time > cutoff);
    if (recent.length === 0) this.addresses.delete(address);
    return recent;
  }

  private pairWait(email: string, address: string): number {
    const state = this.livePair(this.pairKey(email, address));
    if (!state || state.failures < this.settings.freeFailures) return 0;
    const doublings = Math.min(30, state.failures - this.settings.freeFailures);
    const delay = Math.min(this.settings.maxDelayMs, this.settings.firstDelayMs * 2 ** doublings);
    return Math.max(0, state.lastFailure + delay - this.now());
  }

  private addressWait(address: string): number {
    const recent = this.liveAddress(address);
    if (recent.length < this.settings.addressFailures) return 0;
    const oldest = recent[recent.length - this.settings.addressFailures] ?? this.now();
    return Math.max(1, oldest + this.settings.windowMs - this.now());
  }
}

/**
 * Token buckets per key, as hosted Auth limits its endpoints per address: each key may
 * spend `burst` requests at once, and earns one back every `intervalMs`. Kept as credit in
 * milliseconds so that whole-millisecond clocks give exact answers. Bounded like the
 * sign-in counts: the oldest keys are dropped first.
 */
export class TokenBuckets {
  private readonly credit = new Map<string, { ms: number; at: number }>();

  constructor(
    private readonly burst: number,
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = maxEntries,
  ) {}

  /** Spends one request of `key` and answers 0, or answers the milliseconds until it may. */
  take(key: string): number {
    const now = this.now();
    const full = this.burst * this.intervalMs;
    const state = this.credit.get(key);
    const ms = state ? Math.min(full, state.ms + Math.max(0, now - state.at)) : full;
    if (ms < this.intervalMs) {
      remember(this.credit, key, { ms, at: now }, this.maxKeys);
      return this.intervalMs - ms;
    }
    remember(this.credit, key, { ms: ms - this.intervalMs, at: now }, this.maxKeys);
    return 0;
  }
}
