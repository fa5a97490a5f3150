/**
 * The sync engine: owns the loop that pulls server changes and pushes the outbox,
 * while this tab holds the sync-leader lock. Triggers only ask for a cycle; cycles never
 * overlap and never block the screens (which read the device's database). Transient
 * failures back off exponentially with jitter, and never less than a server's
 * Retry-After: until then not even the network's return starts a cycle (only a person's
 * "Sync now" or background sync, through runOnce, does); an expired token is refreshed once and
 * the cycle retried; a revoked session stops syncing and keeps every queued edit until
 * the same user signs in again. Clock, timers, randomness and locks are injected so
 * tests can drive exact timelines.
 */
import type { AppDatabase } from '../data/app-database.ts';
import { pendingEntries, readCursors } from '../data/sync-store.ts';
import type { SyncedTable } from '../data/synced-tables.ts';
import { serviceLimits } from '../domain/limits.ts';
import { syncedTableNames } from '../data/synced-tables.ts';
import type { BackoffPolicy } from './backoff.ts';
import { backoffDelay, defaultBackoff } from './backoff.ts';
import { readableError, SyncInterrupted } from './errors.ts';
import type { LockProvider } from './leader.ts';
import { initialPullDone, pullTables } from './pull.ts';
import { FirstSyncProgress } from './first-sync-progress.ts';
import { pushOutbox } from './push.ts';
import type { SessionState, SyncTransport } from './transport.ts';

/**
 * Why a cycle is asked for. `reconnected`: the Realtime channel joined (again): changes
 * made while it was away brought no poke, and the backend answers once more (after it
 * restarted, say) while the browser may never have gone offline.
 */
export type SyncTrigger = 'start' | 'local-write' | 'online' | 'reconnected' | 'visible' | 'tick' | 'realtime' | 'background-sync' | 'manual' | 'retry';

export type Clock = { now(): number };
export type Timers = { setTimeout(run: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };

/** What the engine reports after every change of state. */
export type SyncReport = {
  state: 'idle' | 'syncing' | 'backing-off' | 'signed-out' | 'stopped';
  leader: boolean;
  lastSyncedAt: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  /**
   * A device's first sync so far: rows stored of the rows the server said it would
   * bring, or tables finished when it could not say; null once it has finished.
   */
  initialSync: { done: number; total: number; unit: 'rows' | 'tables' } | null;
};

export type CycleResult =
  | { ok: true; pushed: number; refused: number; pulled: number; /** Edits of this person still queued: changed again while the push was out. */ waiting?: number }
  | { ok: false; reason: 'transient' | 'signed-out'; message: string };

export type SyncEngineOptions = {
  db: AppDatabase;
  transport: SyncTransport;
  clock: Clock;
  timers: Timers;
  random: () => number;
  locks: LockProvider;
  lockName?: string;
  tables?: readonly SyncedTable[];
  backoff?: BackoffPolicy;
  batchSize?: number;
  pageSize?: number;
  /** Rows one multi-table pull may bring. */
  requestRows?: number;
  /** Wait after a local write before pushing, so a burst of typing is one request. */
  debounceMs?: number;
  /**
   * Longest a push waits for typing to pause: a cell stores every keystroke, and a push
   * in the middle of a number would put its first digits into the server's history.
   */
  debounceMaxMs?: number;
  /** Pull interval while idle. */
  intervalMs?: number;
  onReport?: (report: SyncReport) => void;
};

/** Triggers that pull every table; a local write only pulls the tables it is about to push. */
const fullPullTriggers = new Set<SyncTrigger>(['start', 'online', 'reconnected', 'visible', 'tick', 'realtime', 'manual', 'background-sync']);
/** Triggers that skip a pending backoff: the network or the backend is back, or a person asked. */
const urgentTriggers = new Set<SyncTrigger>(['online', 'reconnected', 'manual', 'background-sync']);

export class SyncEngine {
  private readonly options: Required<Omit<SyncEngineOptions, 'onReport'>> & Pick<SyncEngineOptions, 'onReport'>;
  private report: SyncReport = { state: 'stopped', leader: false, lastSyncedAt: null, lastError: null, nextAttemptAt: null, initialSync: null };
  private release: (() => void) | null = null;
  private stopped = true;
  private timer: { handle: unknown; due: number; trigger: SyncTrigger; since: number } | null = null;
  private cycle: Promise<CycleResult> | null = null;
  private queued: SyncTrigger | null = null;
  private failures = 0;
  /** No automatic cycle before this time: the server's Retry-After. */
  private retryNotBefore = 0;
  /** A first sync under way, kept across its attempts until it completes. */
  private firstSync: FirstSyncProgress | null = null;

  constructor(options: SyncEngineOptions) {
    this.options = {
      lockName: 'sync-leader',
      tables: syncedTableNames,
      backoff: defaultBackoff,
      batchSize: serviceLimits.pushBatchRows,
      pageSize: serviceLimits.pullPageRows,
      requestRows: serviceLimits.pullRequestRows,
      debounceMs: 400,
      debounceMaxMs: 2_000,
      intervalMs: 60_000,
      ...options,
    };
  }

  get isLeader(): boolean {
    return this.release !== null;
  }

  get status(): SyncReport {
    return this.report;
  }

  /** Resolves when no cycle is running (tests and the service worker wait on it). */
  async whenIdle(): Promise<void> {
    while (this.cycle) await this.cycle;
  }

  /** Waits for the leader lock; once held, syncs until stop(). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.options.locks.request(
      this.options.lockName,
      () =>
        new Promise<void>((release) => {
          if (this.stopped) return release();
          this.release = release;
          this.update({ leader: true, state: 'idle' });
          this.trigger('start');
        }),
    );
  }

  /** Stops syncing and hands leadership to the next tab, after any cycle under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    await this.cycle;
    // The next start may be another person's, on a cleared device.
    this.firstSync = null;
    this.release?.();
    this.release = null;
    this.update({ leader: false, state: 'stopped', nextAttemptAt: null });
  }

  /** Asks for a cycle. Only the leader acts; other tabs' writes reach it through the outbox. */
  trigger(reason: SyncTrigger): void {
    if (!this.release || this.stopped) return;
    if (this.report.state === 'backing-off' && !urgentTriggers.has(reason) && reason !== 'retry') return;
    const held = Math.max(0, this.retryNotBefore - this.options.clock.now());
    if (urgentTriggers.has(reason) && held === 0) this.clearTimer();
    this.schedule(Math.max(reason === 'local-write' ? this.options.debounceMs : 0, held), reason);
  }

  /**
   * Runs one cycle now (or joins the one under way). For "Sync now", background sync and
   * tests. `pushFirst` pulls only the tables about to be pushed, even on a device whose
   * first sync never finished: the service worker's short-lived background sync uses it
   * to get edits out before anything else.
   */
  async runOnce(reason: SyncTrigger = 'manual', options: { pushFirst?: boolean } = {}): Promise<CycleResult> {
    if (this.cycle) {
      this.queued = this.merge(this.queued, reason);
      return this.cycle;
    }
    this.cycle = this.runCycle(reason, options.pushFirst ?? false).finally(() => {
      this.cycle = null;
      const next = this.queued;
      this.queued = null;
      if (next && this.release && !this.stopped) this.schedule(0, next);
    });
    return this.cycle;
  }

  private merge(current: SyncTrigger | null, next: SyncTrigger): SyncTrigger {
    return current && fullPullTriggers.has(current) ? current : next;
  }

  /** `since`: when the wait began (a wait for typing to pause counts from its first keystroke). */
  private schedule(ms: number, trigger: SyncTrigger, since = this.options.clock.now()): void {
    const due = this.options.clock.now() + ms;
    if (this.timer && this.timer.due <= due) {
      this.timer.trigger = this.merge(this.timer.trigger, trigger);
      return;
    }
    this.clearTimer();
    const handle = this.options.timers.setTimeout(() => {
      const fired = this.timer?.trigger ?? trigger;
      this.timer = null;
      if (fired !== 'local-write') return void this.runOnce(fired);
      void this.typingPause(since).catch(() => 0).then((wait) => {
        if (wait > 0 && this.release && !this.stopped && !this.timer) this.schedule(wait, 'local-write', since);
        else void this.runOnce(fired);
      });
    }, ms);
    this.timer = { handle, due, trigger, since };
  }

  /** How much longer to wait for the person to stop typing: 0 once edits have rested for the debounce, or the wait is at its longest. */
  private async typingPause(since: number): Promise<number> {
    const { clock, db, debounceMs, debounceMaxMs } = this.options;
    const now = clock.now();
    if (now - since >= debounceMaxMs) return 0;
    const latest = (await db.outbox.toArray()).reduce((newest, entry) => Math.max(newest, entry.updatedAt), 0);
    return Math.max(0, Math.min(latest + debounceMs, since + debounceMaxMs) - now);
  }

  private clearTimer(): void {
    if (this.timer) this.options.timers.clearTimeout(this.timer.handle);
    this.timer = null;
  }

  private update(change: Partial<SyncReport>): void {
    this.report = { ...this.report, ...change };
    this.options.onReport?.(this.report);
  }

  private async runCycle(reason: SyncTrigger, pushFirst: boolean): Promise<CycleResult> {
    this.update({ state: 'syncing' });
    try {
      let session = await this.options.transport.session();
      let result: CycleResult | null = null;
      for (let attempt = 0; attempt < 2 && !result; attempt += 1) {
        if (session.status === 'unreachable') throw new SyncInterrupted({ kind: 'transient', status: 0, code: '', message: session.message });
        if (session.status === 'signed-out') return this.signedOut();
        try {
          result = await this.syncAs(session, reason, pushFirst);
        } catch (error) {
          if (!(error instanceof SyncInterrupted) || error.failure.kind !== 'auth' || attempt === 1) throw error;
          session = await this.options.transport.refreshSession();
        }
      }
      this.failures = 0;
      this.retryNotBefore = 0;
      this.update({ state: 'idle', lastSyncedAt: this.options.clock.now(), lastError: null, nextAttemptAt: null });
      // A cell typed on while its earlier value was being pushed stays queued, with no new
      // entry to wake the engine: it goes after the usual pause for typing, not a minute later.
      const typedOn = (result?.ok && result.waiting) || 0;
      if (this.release && !this.stopped) this.schedule(typedOn > 0 ? this.options.debounceMs : this.options.intervalMs, typedOn > 0 ? 'local-write' : 'tick');
      return result as CycleResult;
    } catch (error) {
      this.failures += 1;
      // What the sync bar and the sign-out dialog show: a sentence, never "TypeError: Failed to fetch".
      const message = readableError(error).text;
      const asked = error instanceof SyncInterrupted ? (error.failure.retryAfterMs ?? 0) : 0;
      const delay = Math.max(backoffDelay(this.failures, this.options.backoff, this.options.random), asked);
      this.retryNotBefore = this.options.clock.now() + asked;
      this.update({ state: 'backing-off', lastError: message, nextAttemptAt: this.options.clock.now() + delay });
      if (this.release && !this.stopped) this.schedule(delay, 'retry');
      return { ok: false, reason: 'transient', message };
    }
  }

  /** The first sync's progress, from its first attempt's tables still to finish. */
  private async startFirstSync(tables: readonly SyncedTable[], now: () => number): Promise<FirstSyncProgress> {
    const minYear = new Date(now()).getUTCFullYear() - 1;
    // A first sync cut short (the app closed) resumes: the tables it finished bring nothing new.
    const cursors = await readCursors(this.options.db, tables);
    const unfinished = tables.filter((_table, index) => !cursors[index]?.completedAt);
    const count = this.options.transport.countRows?.bind(this.options.transport);
    return new FirstSyncProgress(tables, unfinished, count && ((which) => count(which, minYear)), (initialSync) => this.update({ initialSync }));
  }

  private signedOut(): CycleResult {
    this.update({ state: 'signed-out', lastError: 'Sign in again to send the edits waiting on this device.' });
    return { ok: false, reason: 'signed-out', message: 'signed out' };
  }

  private async syncAs(session: Extract<SessionState, { status: 'signed-in' }>, reason: SyncTrigger, pushFirst: boolean): Promise<CycleResult> {
    const { db, transport, tables, batchSize, pageSize, requestRows } = this.options;
    const now = () => this.options.clock.now();
    const firstSync = !pushFirst && !(await initialPullDone(db, tables));
    let toPull: readonly SyncedTable[] = tables;
    if (pushFirst || (!firstSync && !fullPullTriggers.has(reason))) {
      const pendingTables = new Set((await pendingEntries(db, session.userId)).map((entry) => entry.table));
      toPull = tables.filter((table) => pendingTables.has(table));
    }
    let pulled = 0;
    // A pull that fails for the network's sake does not hold the edits back: on a link
    // that loses a share of its replies, a cycle of many pulls rarely gets through, and
    // the push would never be tried. The push's answer reports what it overwrote, so
    // conflicts are still logged; the cycle then fails with the pull's error.
    let pullFailure: SyncInterrupted | null = null;
    if (firstSync) this.firstSync ??= await this.startFirstSync(toPull, now);
    const progress = firstSync ? (this.firstSync ?? undefined) : undefined;
    try {
      pulled = await pullTables({ db, transport, now, pageSize, requestRows, onPage: progress?.onPage }, toPull);
    } catch (error) {
      if (!(error instanceof SyncInterrupted) || error.failure.kind !== 'transient') throw error;
      pullFailure = error;
    }
    await progress?.settle();
    if (firstSync && !pullFailure) {
      this.firstSync = null;
      this.update({ initialSync: null });
    }
    const { pushed, refused } = await pushOutbox({ db, transport, now, batchSize }, session.userId);
    if (pullFailure) throw pullFailure;
    const waiting = pushed > 0 ? await db.outbox.where('[userId+seq]').between([session.userId, -Infinity], [session.userId, Infinity]).count() : 0;
    return { ok: true, pushed, refused, pulled, waiting };
  }
}
