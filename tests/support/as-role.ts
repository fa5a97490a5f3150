/**
 * Runs statements the way the API does for a request: in one transaction, as the JWT's
 * role, with request.jwt.claims set, so the database's own grants and row-level security
 * decide. Every call rolls back afterwards, so role tests never see each other's writes.
 */
import type { Database, Queryable, Row } from '../../supabase/local/db/database.ts';
import { isPostgresError } from '../../supabase/local/db/database.ts';

export type Actor =
  | { role: 'anon' }
  | { role: 'service_role' }
  | { role: 'authenticated'; userId: string };

const rollback = Symbol('rollback');

export async function asActor<T>(db: Database, actor: Actor, work: (tx: Queryable) => Promise<T>): Promise<T> {
  const claims =
    actor.role === 'authenticated'
      ? { sub: actor.userId, role: 'authenticated', aud: 'authenticated' }
      : { role: actor.role };
  let result: T | undefined;
  try {
    await db.transaction(async (tx) => {
      await tx.query("select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)", [
        actor.role,
        JSON.stringify(claims),
      ]);
      result = await work(tx);
      throw rollback;
    });
  } catch (error) {
    if (error !== rollback) throw error;
  }
  return result as T;
}

export type Outcome<T extends Row = Row> = { rows: T[]; affected: number } | { error: string; message: string };

/** One statement as `actor`: its rows, or the Postgres error code and message. */
export async function attempt<T extends Row = Row>(
  db: Database,
  actor: Actor,
  sql: string,
  params: unknown[] = [],
): Promise<Outcome<T>> {
  try {
    return await asActor(db, actor, async (tx) => {
      const result = await tx.query<T>(sql, params);
      return { rows: result.rows, affected: result.affectedRows };
    });
  } catch (error) {
    if (isPostgresError(error)) return { error: error.code ?? '', message: error.message };
    throw error;
  }
}
