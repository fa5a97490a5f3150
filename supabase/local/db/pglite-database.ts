import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import type { Database, Queryable, QueryResult, Row } from './database.ts';

type PgliteRunner = Pick<PGlite, 'query' | 'exec'>;

function wrap(runner: PgliteRunner): Queryable {
  return {
    async query<T extends Row>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const result = await runner.query<T>(sql, params);
      return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    },
    async exec(sql: string) {
      await runner.exec(sql);
    },
  };
}

/**
 * Opens PGlite with its data in `dataDir` (kept across restarts) or in memory when
 * `dataDir` is undefined. PGlite has a single connection and queues every call on it,
 * so transactions are serialised by PGlite itself.
 */
export async function openPgliteDatabase(dataDir?: string): Promise<Database> {
  return pgliteDatabase(await PGlite.create(dataDir, { extensions: { pgcrypto } }));
}

/** The Database over a PGlite opened elsewhere (with the extensions the migrations need). */
export function pgliteDatabase(pglite: PGlite): Database {
  return {
    engine: 'pglite',
    ...wrap(pglite),
    transaction: (work) => pglite.transaction((tx) => work(wrap(tx))),
    async listen(channel, onMessage) {
      const stop = await pglite.listen(channel, onMessage);
      return async () => stop();
    },
    close: () => pglite.close(),
  };
}
