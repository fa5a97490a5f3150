/**
 * The one interface the embedded stack and the database tests use to reach Postgres,
 * whichever engine is behind it: PGlite in a worker thread (the backend), PGlite
 * in-process (database tests), both one connection, or a real PostgreSQL server. Implementations guarantee that `transaction` runs its callback in
 * one transaction on one connection, commits when it resolves and rolls back when it
 * throws; nothing else runs on that connection meanwhile.
 */

export type Row = Record<string, unknown>;

export type QueryResult<T extends Row = Row> = {
  rows: T[];
  /** Rows inserted, updated or deleted by the statement (0 for SELECT on some engines). */
  affectedRows: number;
};

export type Queryable = {
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs a script of several statements without parameters (migrations, seeds). */
  exec(sql: string): Promise<void>;
};

export type TransactionOptions = {
  /**
   * The statement timeout the transaction sets for its statements. PostgreSQL applies
   * the one set in SQL; PGlite cannot, so in a worker (worker-database.ts) a statement
   * past it ends the worker. Callers still set it in SQL for PostgreSQL.
   */
  statementTimeoutMs?: number;
};

export type Database = Queryable & {
  readonly engine: 'pglite' | 'postgres';
  transaction<T>(work: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Calls `onMessage` for every NOTIFY on `channel`; resolves to a function that stops it. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

/** The fields Postgres reports with an error, as both engines expose them. */
export type PostgresError = Error & {
  code?: string;
  detail?: string;
  hint?: string;
};

export function isPostgresError(error: unknown): error is PostgresError {
  return error instanceof Error && typeof (error as PostgresError).code === 'string';
}
