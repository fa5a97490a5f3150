import pg from 'pg';
import { log } from '../logger.ts';
import type { Database, Queryable, QueryResult, Row } from './database.ts';

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T extends Row>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const result = await client.query<T>(sql, params);
      return { rows: result.rows, affectedRows: result.rowCount ?? 0 };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

/** Connects to a real PostgreSQL server given a postgres:// URL. */
export async function openPostgresDatabase(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  // An idle connection the server ends (a restart, an administrator) is dropped by the
  // pool, which then emits 'error': unheard, that would end the whole process.
  pool.on('error', (error) => log.warn(`database: an idle connection ended: ${error.message}`));
  const probe = await pool.connect();
  probe.release();
  return {
    engine: 'postgres',
    ...wrap(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, onMessage) {
      const client = await pool.connect();
      const handler = (message: pg.Notification) => {
        if (message.channel === channel) onMessage(message.payload ?? '');
      };
      client.on('notification', handler);
      // Held for as long as the stack runs, so never idle in the pool: it needs its own ear.
      client.on('error', (error) => log.warn(`database: the ${channel} listener's connection ended: ${error.message}`));
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      return async () => {
        client.off('notification', handler);
        await client.query(`unlisten ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
        client.release();
      };
    },
    close: () => pool.end(),
  };
}
