/**
 * One sync leader per browser, however many tabs: the tab holding the lock runs the
 * engine; the others wait in the lock's queue and take over when it is released (the
 * tab closed or stopped). Web Locks where the browser has them; an in-process lock for
 * tests and for browsers without them (there each tab leads itself, which the
 * server-side idempotency makes safe, only less thrifty).
 */

export type LockProvider = {
  /** Holds the named lock while `work` runs; resolves after it ran and released. */
  request(name: string, work: () => Promise<void>): Promise<void>;
};

export function webLocks(): LockProvider | null {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) return null;
  return { request: (name, work) => locks.request(name, () => work()) };
}

/** A FIFO lock inside one JavaScript realm. */
export class InProcessLocks implements LockProvider {
  private readonly tails = new Map<string, Promise<void>>();

  request(name: string, work: () => Promise<void>): Promise<void> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    this.tails.set(name, tail);
    return run;
  }
}
