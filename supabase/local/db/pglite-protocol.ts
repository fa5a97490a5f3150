/**
 * The messages between the backend's event loop and the worker thread that runs PGlite
 * (pglite-worker.ts, worker-database.ts). Values cross by structured clone, so rows keep
 * their Dates, numbers and byte arrays as PGlite parsed them.
 */

export type WorkerSetup = {
  /** PGlite's folder; none keeps the database in the worker's memory. */
  dataDir?: string;
};

export type WorkerRequest =
  | { id: number; kind: 'query'; sql: string; params: unknown[] }
  | { id: number; kind: 'exec'; sql: string }
  | { id: number; kind: 'listen' | 'unlisten'; channel: string }
  | { id: number; kind: 'close' };

/** A Postgres error's fields, as both engines report them. */
export type ErrorFields = { message: string } & Record<string, string | undefined>;

export type WorkerReply =
  | { kind: 'ready' }
  | { kind: 'open-failed'; error: ErrorFields }
  | { kind: 'result'; id: number; rows: Record<string, unknown>[]; affectedRows: number }
  | { kind: 'error'; id: number; error: ErrorFields }
  | { kind: 'notify'; channel: string; payload: string };

const errorFieldNames = [
  'code', 'detail', 'hint', 'severity', 'position', 'where', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine',
] as const;

export function errorFields(error: unknown): ErrorFields {
  const fields: ErrorFields = { message: error instanceof Error ? error.message : String(error) };
  if (typeof error === 'object' && error !== null) {
    for (const name of errorFieldNames) {
      const value = (error as Record<string, unknown>)[name];
      if (typeof value === 'string') fields[name] = value;
    }
  }
  return fields;
}

/** The error as callers of the Database interface see it (isPostgresError reads its code). */
export function errorFrom(fields: ErrorFields): Error {
  const { message, ...rest } = fields;
  return Object.assign(new Error(message), rest);
}
