/**
 * The bounded queue in front of the database for client-driven requests. It lets a
 * fixed number of requests use the database at once, keeps a bounded number waiting,
 * and refuses the rest at once (the caller answers 503 with Retry-After), so one busy
 * client cannot make everybody else wait without end. A waiting request gives up after
 * `maxWaitMs`. When a place frees up it goes to the waiting client that holds the fewest
 * places and was served least recently, so a client with many requests in flight takes
 * turns with the others instead of going first because it asked first.
 */

export type RequestQueueOptions = {
  /** Requests that may use the database at once. */
  concurrency: number;
  /** Requests that may wait; one more is refused. */
  maxWaiting: number;
  /** Waiting requests one client may hold; one more is refused. */
  maxWaitingPerClient: number;
  /** Longest a request waits before it is refused, in milliseconds. */
  maxWaitMs: number;
};

export type QueueRefusal = 'queue-full' | 'client-queue-full' | 'wait-timeout';

/** Thrown instead of running the work: the database is too busy for this request now. */
export class DatabaseBusyError extends Error {
  constructor(readonly reason: QueueRefusal) {
    super(
      reason === 'wait-timeout'
        ? 'The request waited too long for the database.'
        : reason === 'client-queue-full'
          ? 'This client already has the most requests waiting for the database that it may have.'
          : 'Too many requests are waiting for the database.',
    );
  }
}

type Waiter = {
  client: string;
  seq: number;
  grant: () => void;
  timer: ReturnType<typeof setTimeout>;
};

type ClientState = { running: number; waiting: number; lastServed: number };

export class RequestQueue {
  private running = 0;
  private waiters: Waiter[] = [];
  private readonly clients = new Map<string, ClientState>();
  private arrivals = 0;
  private served = 0;

  constructor(private readonly options: RequestQueueOptions) {}

  /** Requests using the database now, and requests waiting for it. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiters.length };
  }

  /** Runs `work` when the database is free for it, or throws DatabaseBusyError. */
  async run<T>(client: string, work: () => Promise<T>): Promise<T> {
    await this.acquire(client);
    try {
      // PGlite in-process (the test stacks; the backend runs it in a worker) runs each
      // statement synchronously on this thread, so a request admitted here could run start
      // to end before the requests already waiting on sockets are even read. One turn of
      // the event loop first lets them arrive and queue behind it.
      await new Promise<void>((resolve) => setImmediate(resolve));
      return await work();
    } finally {
      this.release(client);
    }
  }

  private state(client: string): ClientState {
    let state = this.clients.get(client);
    if (!state) {
      state = { running: 0, waiting: 0, lastServed: -1 };
      this.clients.set(client, state);
    }
    return state;
  }

  private acquire(client: string): Promise<void> {
    const state = this.state(client);
    if (this.running < this.options.concurrency && this.waiters.length === 0) {
      this.start(state);
      return Promise.resolve();
    }
    const refusal: QueueRefusal | null =
      this.waiters.length >= this.options.maxWaiting
        ? 'queue-full'
        : state.waiting >= this.options.maxWaitingPerClient
          ? 'client-queue-full'
          : null;
    if (refusal) {
      this.forgetIfIdle(client, state);
      return Promise.reject(new DatabaseBusyError(refusal));
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        client,
        seq: this.arrivals++,
        grant: resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          state.waiting -= 1;
          this.forgetIfIdle(client, state);
          reject(new DatabaseBusyError('wait-timeout'));
        }, this.options.maxWaitMs),
      };
      waiter.timer.unref?.();
      state.waiting += 1;
      this.waiters.push(waiter);
    });
  }

  private start(state: ClientState): void {
    this.running += 1;
    state.running += 1;
    state.lastServed = this.served++;
  }

  private release(client: string): void {
    this.running -= 1;
    const state = this.state(client);
    state.running -= 1;
    this.forgetIfIdle(client, state);
    this.dispatch();
  }

  /** A client with nothing running or waiting is forgotten: its next request is served as a newcomer's. */
  private forgetIfIdle(client: string, state: ClientState): void {
    if (state.running === 0 && state.waiting === 0) this.clients.delete(client);
  }

  private dispatch(): void {
    while (this.running < this.options.concurrency && this.waiters.length > 0) {
      let best = this.waiters[0] as Waiter;
      for (const waiter of this.waiters) {
        if (this.before(waiter, best)) best = waiter;
      }
      this.waiters = this.waiters.filter((w) => w !== best);
      clearTimeout(best.timer);
      const state = this.state(best.client);
      state.waiting -= 1;
      this.start(state);
      best.grant();
    }
  }

  /** Fewest places held first, then least recently served, then first come. */
  private before(a: Waiter, b: Waiter): boolean {
    const sa = this.state(a.client);
    const sb = this.state(b.client);
    if (sa.running !== sb.running) return sa.running < sb.running;
    if (sa.lastServed !== sb.lastServed) return sa.lastServed < sb.lastServed;
    return a.seq < b.seq;
  }
}
