/** Reading a changed row back as one subscriber: same role, same claims, same row-level security. */
import type { Database } from '../db/database.ts';
import type { JwtClaims } from '../jwt.ts';
import { log } from '../logger.ts';
import { ident } from '../rest/sql-fragments.ts';

export type ChangedRow = { schema: string; table: string; key: Record<string, unknown> };

export async function readRowAs(db: Database, claims: JwtClaims, change: ChangedRow): Promise<Record<string, unknown> | null> {
  const keys = Object.entries(change.key);
  if (keys.length === 0) return null;
  const where = keys.map(([column], i) => `t.${ident(column)} = $${i + 1}`).join(' and ');
  return db
    .transaction(async (tx) => {
      await tx.query('set transaction read only');
      // Role and claims first, in their own statement: RLS is applied when the reading
      // statement is planned, so they must be in force before it.
      await tx.query("select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)", [
        claims.role ?? 'anon',
        JSON.stringify(claims),
      ]);
      const { rows } = await tx.query<{ row: string }>(
        `select to_jsonb(t)::text as row from ${ident(change.schema)}.${ident(change.table)} t where ${where}`,
        keys.map(([, value]) => (value === null ? null : String(value))),
      );
      return rows[0]?.row ? (JSON.parse(rows[0].row) as Record<string, unknown>) : null;
    })
    .catch((error: unknown) => {
      log.debug(`realtime: ${change.table} not readable by ${String(claims.sub ?? claims.role)}: ${String(error)}`);
      return null;
    });
}
