/**
 * The push_changes that shipped before the set-based one (row by row, from its migration
 * 20260302000000_push_changes_batch_bound.sql), installed as `public.push_changes_before`,
 * so tests can hold the current function to the same answers, rows and errors. It looks its
 * tables up in today's registry (private.synced_tables), as the current function does.
 */
import { readFileSync } from 'node:fs';
import type { Database, Row } from '../../../supabase/local/db/database.ts';
import { migrationsDir } from '../../../supabase/local/db/migrate.ts';

export type PushFunction = 'push_changes' | 'push_changes_before';

export async function installPreviousPushChanges(db: Database): Promise<void> {
  const source = readFileSync(`${migrationsDir}/20260302000000_push_changes_batch_bound.sql`, 'utf8');
  // Its own list of tables is swapped for today's registry, so the tables added since are compared too.
  const withRegistry = source.replace(/v_key := case p_table[\s\S]*?\n {2}end;/, 'v_key := private.synced_table_key(p_table);');
  if (withRegistry === source) throw new Error('the previous push_changes no longer has the table list this helper replaces');
  await db.exec(withRegistry.replaceAll('public.push_changes(', 'public.push_changes_before('));
}

/** A row without what the server stamps differently on every run (times, a new row's id). */
export function comparable(row: Row): Row {
  const { updated_at: _updated, created_at: _created, id: _id, ...rest } = row;
  return rest;
}
