/**
 * Keeps the planner's statistics current on PGlite, which has no autovacuum: never
 * analyzed, a table's columns get default selectivities (a store's figures estimated at
 * half a percent of the table), and the planned-cost guard (plan-cost.ts) would let
 * through a request reading the whole table once per row. Tables are analyzed before the
 * first request, then (checked every 15 s) whenever their size on disk has moved from
 * what the last ANALYZE saw.
 * Each ANALYZE is one table, in its turn in the database queue, so other requests wait
 * at most one table's sampling (a few hundred milliseconds for years of figures).
 * PostgreSQL's autovacuum does this there.
 */
import type { Database } from '../db/database.ts';
import type { RequestQueue } from '../db/request-queue.ts';
import { ident } from './sql-fragments.ts';

/** How often the tables' sizes are compared with what their statistics were taken from. */
const checkEveryMs = 15_000;

/**
 * Tables never analyzed, or whose pages differ from the last ANALYZE's by more than a
 * tenth (and 8 pages): autovacuum's rule of thumb, read from the files' sizes because
 * PGlite's activity counters do not survive a restart.
 */
const staleTablesSql = `
  select n.nspname as schema, c.relname as name
  from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_toast'
    and (c.reltuples < 0 or abs(pg_catalog.pg_relation_size(c.oid) / current_setting('block_size')::int - c.relpages) > 8 + c.relpages / 10)`;

export type PlannerStatistics = { refresh(): Promise<void>; stop(): Promise<void> };

export function keepPlannerStatistics(db: Database, queue: RequestQueue): PlannerStatistics {
  let running: Promise<void> | null = null;
  let stopped = false;
  const analyze = async () => {
    const { rows } = await queue.run('planner-statistics', () => db.query<{ schema: string; name: string }>(staleTablesSql));
    for (const table of rows) {
      if (stopped) return;
      await queue.run('planner-statistics', () => db.query(`analyze ${ident(table.schema)}.${ident(table.name)}`));
    }
  };
  const refresh = () => {
    // A busy queue or a reopening database skips this round; the next one catches up.
    running ??= analyze().catch(() => undefined).finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => void refresh(), checkEveryMs);
  timer.unref();
  return {
    refresh,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
