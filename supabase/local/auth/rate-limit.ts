/**
 * Failed sign-in attempts per e-mail and per client address in a sliding window, so a
 * password can't be guessed at network speed. Only failures count: the people of one
 * dealership often share one public address and sign in all morning.
 */
export type RateLimitOptions = { perEmail: number; perAddress: number; windowMs: number };

export const defaultRateLimit: RateLimitOptions = { perEmail: 10, perAddress: 50, windowMs: 5 * 60_000 };

export class SignInRateLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly options: RateLimitOptions = defaultRateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfter(email: string, address: string): number {
    const waits = [
      this.wait(`email:${email}`, this.options.perEmail),
      this.wait(`addr:${address}`, this.options.perAddress),
    ];
    return Math.max(...waits);
  }

  recordFailure(email: string, address: string): void {
    for (const key of [`email:${email}`, `addr:${address}`]) {
      const list = this.recent(key);
      list.push(this.now());
      this.failures.set(key, list);
    }
  }

  recordSuccess(email: string): void {
    this.failures.delete(`email:${email}`);
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - this.options.windowMs;
    const list = (this.failures.get(key) ?? []).filter((time) => time > cutoff);
    if (list.length === 0) this.failures.delete(key);
    return list;
  }

  private wait(key: string, limit: number): number {
    const list = this.recent(key);
    if (list.length < limit) return 0;
    const oldest = list[list.length - limit] ?? this.now();
    return Math.max(1, Math.ceil((oldest + this.options.windowMs - this.now()) / 1000));
  }
}
