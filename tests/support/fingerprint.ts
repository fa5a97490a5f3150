/**
 * Every table's row count and a digest of its rows, computed by the database itself, so
 * two databases can be compared row for row without trusting the code that copied them.
 * Rows are compared as Postgres prints them (times in UTC), in a fixed order.
 */
import type { Database } from '../../supabase/local/db/database.ts';

export type TableFingerprint = { rows: number; digest: string };

export async function tableFingerprints(db: Database): Promise<Record<string, TableFingerprint>> {
  return db.transaction(async (tx) => {
    await tx.query("set local timezone to 'UTC'");
    const { rows: tables } = await tx.query<{ name: string }>(
      `select format('%I.%I', schemaname, tablename) as name from pg_tables
       where schemaname not in ('pg_catalog', 'information_schema', 'supabase_migrations')
       order by 1`,
    );
    const result: Record<string, TableFingerprint> = {};
    for (const { name } of tables) {
      const { rows } = await tx.query<{ n: number; digest: string }>(
        `select count(*)::integer as n, coalesce(md5(string_agg(md5(t::text), '' order by md5(t::text))), '') as digest from ${name} t`,
      );
      result[name] = { rows: rows[0]?.n ?? -1, digest: rows[0]?.digest ?? '' };
    }
    return result;
  });
}
