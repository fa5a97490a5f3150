/**
 * Two ways to act as a role against the same database, for the RLS suites: statements
 * run directly as the role (what Postgres enforces), and requests through supabase-js
 * to the embedded stack (what a client actually gets). Both answer in one shape.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../../supabase/local/db/database.ts';
import type { Actor, Outcome } from '../../support/as-role.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { rlsFixtures, upsertSql } from './fixtures.ts';

export type TableAccess = {
  selectIds(actor: Actor, table: string, ids: string[]): Promise<Outcome>;
  /** Every visible row's `column`, ordered by it. */
  selectColumn(actor: Actor, table: string, column: string): Promise<Outcome>;
  insert(actor: Actor, table: string, row: Record<string, unknown>): Promise<Outcome>;
  /** A function of the public schema without arguments; its value as rows [{ value }]. */
  rpc(actor: Actor, fn: string): Promise<Outcome>;
  upsert(actor: Actor, table: string, row: Record<string, unknown>, naturalKey: string[]): Promise<Outcome>;
  update(actor: Actor, table: string, id: string, change: Record<string, unknown>): Promise<Outcome>;
  remove(actor: Actor, table: string, id: string): Promise<Outcome>;
};

export function sqlAccess(db: Database): TableAccess {
  return {
    selectIds: (actor, table, ids) => attempt(db, actor, `select id from public.${table} where id = any($1::uuid[])`, [ids]),
    upsert: (actor, table, row, key) => attempt(db, actor, upsertSql(table, Object.keys(row), key), Object.values(row)),
    update: (actor, table, id, change) => {
      const columns = Object.keys(change);
      const sets = columns.map((c, i) => `${c} = $${i + 2}`).join(', ');
      return attempt(db, actor, `update public.${table} set ${sets} where id = $1`, [id, ...Object.values(change)]);
    },
    remove: (actor, table, id) => attempt(db, actor, `delete from public.${table} where id = $1`, [id]),
    selectColumn: (actor, table, column) =>
      attempt(db, actor, `select ${column}::text as ${column} from public.${table} order by ${column}`),
    insert: (actor, table, row) => {
      const columns = Object.keys(row);
      const values = columns.map((_, i) => `$${i + 1}`).join(', ');
      return attempt(db, actor, `insert into public.${table} (${columns.join(', ')}) values (${values}) returning id`, Object.values(row));
    },
    rpc: (actor, fn) => attempt(db, actor, `select public.${fn}() as value`),
  };
}

const emails: Record<string, string> = {
  [demo.managerId]: 'manager@example.com',
  [demo.adminId]: 'admin@example.com',
  [demo.otherId]: 'other@example.com',
  [rlsFixtures.selfPromotedUserId]: rlsFixtures.selfPromotedEmail,
};

export function httpAccess(stack: TestStack): TableAccess {
  const clients = new Map<string, Promise<SupabaseClient>>();
  const clientFor = (actor: Actor): Promise<SupabaseClient> => {
    const key = actor.role === 'authenticated' ? actor.userId : actor.role;
    let client = clients.get(key);
    if (!client) {
      if (actor.role === 'anon') client = Promise.resolve(stack.anon());
      else if (actor.role === 'service_role') client = Promise.resolve(stack.service());
      else client = stack.signIn(emails[actor.userId] ?? '');
      clients.set(key, client);
    }
    return client;
  };
  const outcome = (result: { data: unknown; error: { code: string; message: string } | null }): Outcome =>
    result.error
      ? { error: result.error.code, message: result.error.message }
      : { rows: (result.data ?? []) as Array<Record<string, unknown>>, affected: ((result.data ?? []) as unknown[]).length };
  return {
    selectIds: async (actor, table, ids) => outcome(await (await clientFor(actor)).from(table).select('id').in('id', ids)),
    upsert: async (actor, table, row, key) =>
      outcome(await (await clientFor(actor)).from(table).upsert(row, { onConflict: key.join(',') }).select('id')),
    update: async (actor, table, id, change) =>
      outcome(await (await clientFor(actor)).from(table).update(change).eq('id', id).select('id')),
    remove: async (actor, table, id) => outcome(await (await clientFor(actor)).from(table).delete().eq('id', id).select('id')),
    selectColumn: async (actor, table, column) =>
      outcome(await (await clientFor(actor)).from(table).select(column).order(column)),
    insert: async (actor, table, row) => outcome(await (await clientFor(actor)).from(table).insert(row).select('id')),
    rpc: async (actor, fn) => {
      const result = await (await clientFor(actor)).rpc(fn);
      return result.error ? outcome(result) : { rows: [{ value: result.data }], affected: 1 };
    },
  };
}
