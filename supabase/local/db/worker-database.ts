/**
 * PGlite in a worker thread behind the Database interface, so the event loop never waits
 * on a statement: health checks, sign-in throttles and every reply that needs no database
 * keep answering while PGlite works. PGlite cannot interrupt a statement; when one in a
 * transaction opened with a statement timeout runs past it, the worker is ended (the
 * caller gets 57014, as from PostgreSQL) and the database is reopened from its folder,
 * where every committed write already is (PGlite writes each commit through). Work that
 * waited meanwhile runs on the reopened database. A database kept in memory has nothing
 * to reopen from, so its worker is never ended: a long statement there runs to its end.
 *
 * One statement is in the worker at a time: top-level statements and whole transactions
 * take turns here, which is what PGlite's own queue did in-process.
 */
import { Worker } from 'node:worker_threads';
import { log } from '../logger.ts';
import type { Database, Queryable, QueryResult, Row, TransactionOptions } from './database.ts';
import type { ErrorFields, WorkerReply, WorkerRequest, WorkerSetup } from './pglite-protocol.ts';
import { errorFrom } from './pglite-protocol.ts';

export type WorkerDatabaseOptions = {
  /** PGlite's folder; none keeps the database in memory (never ended, see above). */
  dataDir?: string;
  /** Statements every opening of the database runs first (session settings). */
  setup?: string[];
  /** Called after the database was reopened from its folder (files to re-secure). */
  afterReopen?: () => Promise<void>;
};

type Pending = { resolve: (reply: WorkerReply & { kind: 'result' }) => void; reject: (error: Error) => void };

type Connection = {
  worker: Worker;
  /** Resolves once PGlite is open and set up; rejects if it could not open. */
  ready: Promise<void>;
  pending: Map<number, Pending>;
  ended: boolean;
};

const timeoutFields: ErrorFields = { message: 'canceling statement due to statement timeout', code: '57014' };

export async function openWorkerDatabase(options: WorkerDatabaseOptions = {}): Promise<Database> {
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let nextId = 0;
  let closed = false;
  let connection = spawn();
  await connection.ready;

  function spawn(): Connection {
    const setup: WorkerSetup = { dataDir: options.dataDir };
    const worker = new Worker(new URL('./pglite-worker-entry.mjs', import.meta.url), { workerData: setup });
    const pending = new Map<number, Pending>();
    const conn: Connection = { worker, pending, ended: false, ready: Promise.resolve() };
    let opened!: () => void;
    let failed!: (error: Error) => void;
    const open = new Promise<void>((resolve, reject) => {
      opened = resolve;
      failed = reject;
    });
    worker.on('message', (message: WorkerReply) => {
      if (message.kind === 'ready') return opened();
      if (message.kind === 'open-failed') {
        failed(errorFrom(message.error));
        void worker.terminate();
        return;
      }
      if (message.kind === 'notify') {
        for (const listener of listeners.get(message.channel) ?? []) listener(message.payload);
        return;
      }
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.kind === 'result') waiting?.resolve(message);
      else waiting?.reject(errorFrom(message.error));
    });
    const lost = (why: string) => {
      if (conn.ended) return;
      conn.ended = true;
      const error = new Error(`The database worker ${why}.`);
      failed(error);
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
      if (!closed) log.error(`database: the PGlite worker ${why}`);
    };
    worker.on('error', (error) => lost(`failed: ${error.message}`));
    worker.on('exit', (code) => lost(`stopped (exit code ${code})`));
    conn.ready = open.then(async () => {
      for (const sql of options.setup ?? []) await post(conn, { kind: 'exec', sql });
      for (const channel of listeners.keys()) await post(conn, { kind: 'listen', channel });
    });
    // Nobody may be waiting yet; the failure is reported to whoever uses it.
    conn.ready.catch(() => undefined);
    return conn;
  }

  function post(conn: Connection, request: DistributiveOmit<WorkerRequest, 'id'>, timeoutMs?: number): Promise<WorkerReply & { kind: 'result' }> {
    if (conn.ended) return Promise.reject(new Error('The database worker has stopped.'));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = <A>(finish: (value: A) => void) => (value: A) => {
        clearTimeout(timer);
        finish(value);
      };
      conn.pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      conn.worker.postMessage({ ...request, id } as WorkerRequest);
      if (timeoutMs !== undefined && options.dataDir) {
        timer = setTimeout(() => endAndReopen(conn, timeoutMs), timeoutMs);
      }
    });
  }

  /** Set while a worker is being ended and its folder opened again: nothing may open it meanwhile. */
  let reopening: Promise<void> | null = null;

  function reopen(previous: Connection): Promise<void> {
    reopening ??= (async () => {
      // Never two PGlite on one folder: the old thread is gone before the new one opens it.
      await previous.worker.terminate();
      connection = spawn();
      await connection.ready;
      await options.afterReopen?.();
    })().finally(() => {
      reopening = null;
    });
    return reopening;
  }

  /** Ends a worker stuck in a statement past its timeout, and opens the folder again. */
  function endAndReopen(conn: Connection, timeoutMs: number): void {
    if (conn.ended || connection !== conn) return;
    const started = performance.now();
    conn.ended = true;
    for (const waiting of conn.pending.values()) waiting.reject(errorFrom(timeoutFields));
    conn.pending.clear();
    reopen(conn).then(
      () => log.warn(`database: a statement ran past the statement timeout (${timeoutMs} ms); PGlite was ended and reopened in ${Math.round(performance.now() - started)} ms`),
      (error: unknown) => log.error(`database: PGlite could not be reopened after a statement timeout: ${(error as Error).message}`),
    );
  }

  /** The connection to use now: the current one, reopened first if it was lost. */
  async function current(): Promise<Connection> {
    if (closed) throw new Error('The database is closed.');
    if (reopening) await reopening.catch(() => undefined);
    if (connection.ended && options.dataDir) await reopen(connection);
    await connection.ready;
    return connection;
  }

  // Statements and whole transactions take turns, one at a time.
  let tail: Promise<unknown> = Promise.resolve();
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  }

  function queryable(conn: () => Connection | null, timeoutMs?: number): Queryable {
    const live = () => {
      const c = conn();
      if (!c || c.ended) throw errorFrom(timeoutFields);
      return c;
    };
    return {
      async query<T extends Row>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
        const reply = await post(live(), { kind: 'query', sql, params }, timeoutMs);
        return { rows: reply.rows as T[], affectedRows: reply.affectedRows };
      },
      async exec(sql: string) {
        await post(live(), { kind: 'exec', sql }, timeoutMs);
      },
    };
  }

  const topLevel = (work: (conn: Connection) => Promise<WorkerReply & { kind: 'result' }>) =>
    exclusive(async () => work(await current()));

  return {
    engine: 'pglite',
    async query<T extends Row>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const reply = await topLevel((conn) => post(conn, { kind: 'query', sql, params }));
      return { rows: reply.rows as T[], affectedRows: reply.affectedRows };
    },
    async exec(sql: string) {
      await topLevel((conn) => post(conn, { kind: 'exec', sql }));
    },
    transaction<T>(work: (tx: Queryable) => Promise<T>, txOptions: TransactionOptions = {}): Promise<T> {
      return exclusive(async () => {
        const conn = await current();
        await post(conn, { kind: 'exec', sql: 'begin' });
        let open = true;
        try {
          const result = await work(queryable(() => (open ? conn : null), txOptions.statementTimeoutMs));
          await post(conn, { kind: 'exec', sql: 'commit' });
          return result;
        } catch (error) {
          // A worker ended mid-transaction took the transaction with it: nothing to roll back.
          if (!conn.ended) await post(conn, { kind: 'exec', sql: 'rollback' }).catch(() => undefined);
          throw error;
        } finally {
          open = false;
        }
      });
    },
    async listen(channel, onMessage) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await topLevel((conn) => post(conn, { kind: 'listen', channel }));
      }
      set.add(onMessage);
      return async () => {
        set.delete(onMessage);
        if (set.size > 0 || listeners.get(channel) !== set) return;
        listeners.delete(channel);
        await topLevel((conn) => post(conn, { kind: 'unlisten', channel })).catch(() => undefined);
      };
    },
    async close() {
      await exclusive(async () => {
        if (closed) return;
        // A reopening under way would otherwise leave a worker behind.
        if (reopening) await reopening.catch(() => undefined);
        const conn = connection;
        if (!conn.ended) await post(conn, { kind: 'close' }).catch(() => undefined);
        closed = true;
        conn.ended = true;
        await conn.worker.terminate();
      });
    },
  };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
