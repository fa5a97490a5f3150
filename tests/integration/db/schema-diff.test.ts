/**
 * npm run db:diff writes the migration that brings the migrations to the declared schema:
 * on a copy of supabase/ with changes declared in its schema files (a new synced table
 * with its policies, trigger, publication and registry row; a new column with a comment;
 * a changed function body; a changed policy; a new index), the migration it writes makes
 * the migrations build exactly the declared schema. A change it cannot make safely (a
 * column's type) is listed to be written by hand.
 */
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diffSchema } from '../../../scripts/db-diff.ts';
import { supabaseDir } from '../../../scripts/db/declared-schema.ts';

let copies: string[] = [];
afterEach(async () => {
  await Promise.all(copies.map((dir) => rm(dir, { recursive: true, force: true })));
  copies = [];
});

async function copyOfSupabase(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'schema-diff-'));
  copies.push(dir);
  for (const part of ['config.toml', 'schemas', 'migrations']) await cp(path.join(supabaseDir, part), path.join(dir, part), { recursive: true });
  return dir;
}

async function edit(file: string, change: (text: string) => string) {
  const text = await readFile(file, 'utf8');
  const changed = change(text);
  expect(changed, `${file} did not change`).not.toBe(text);
  await writeFile(file, changed);
}

const quiet = () => {};

describe('npm run db:diff', () => {
  it('says there is nothing to write when the schema files and the migrations agree', async () => {
    const dir = await copyOfSupabase();
    const result = await diffSchema({ name: 'nothing', supabase: dir, migrations: path.join(dir, 'migrations'), log: quiet });
    expect(result).toEqual({ file: null, sql: '', byHand: [], remaining: '' });
  });

  it('writes the migration for new tables, columns, bodies, policies and indexes, which then builds the declared schema', async () => {
    const dir = await copyOfSupabase();
    const schemas = path.join(dir, 'schemas');
    await writeFile(
      path.join(schemas, 'tables/public.service_notes.sql'),
      `create table public.service_notes (
         id uuid primary key default gen_random_uuid(),
         store_id uuid not null references public.stores (id) on delete cascade,
         note_date date not null,
         body text check (char_length(body) <= 500),
         updated_at timestamptz not null default now(),
         sync_xid xid8 not null default pg_current_xact_id(),
         deleted_at timestamptz,
         constraint service_notes_natural_key unique (store_id, note_date)
       );
       comment on column public.service_notes.body is 'What the service manager noted for the day.';
       alter table public.service_notes enable row level security;
       create policy "Store members can read their store's rows" on public.service_notes
         for select to authenticated using (store_id = (select public.get_user_store_id()));
       revoke all on public.service_notes from anon;
       create trigger stamp_sync_columns before insert or update on public.service_notes
         for each row execute function private.stamp_sync_columns();
       alter publication supabase_realtime add table public.service_notes;
       insert into private.synced_tables (name, key_columns) values ('service_notes', array['store_id', 'note_date']);`,
    );
    await edit(path.join(schemas, 'tables/public.yearly_financial_inputs.sql'), (text) =>
      text
        .replace('  deleted_at timestamptz,\n', '  deleted_at timestamptz,\n  other_exp numeric(14, 2),\n')
        .replace(/(comment on column public\.yearly_financial_inputs\.sync_xid)/, "comment on column public.yearly_financial_inputs.other_exp is 'Other expenses, in dollars.';\n$1")
        .replace(/create index yearly_financial_inputs_sync .*\n/, '$&create index yearly_financial_inputs_store_year on public.yearly_financial_inputs (store_id, year);\n'),
    );
    await edit(path.join(schemas, 'functions/private.history_ignores.sql'), (text) => text.replace("'sync_xid',", "'sync_xid', 'deleted_at',"));
    await edit(path.join(schemas, 'tables/public.stores.sql'), (text) =>
      text.replace('create policy "Admins delete stores" on public.stores\n  for delete to authenticated using ((select public.is_user_admin()));', 'create policy "Admins delete stores" on public.stores\n  for delete to authenticated using (false);'),
    );

    const migrations = path.join(dir, 'migrations');
    const result = await diffSchema({ name: 'service_notes', version: '29990101000000', supabase: dir, migrations, log: quiet });

    expect(result.byHand).toEqual([]);
    expect(result.remaining).toBe('');
    expect(result.file).toBe(path.join(migrations, '29990101000000_service_notes.sql'));
    expect((await readdir(migrations)).sort().at(-1)).toBe('29990101000000_service_notes.sql');
    const sql = await readFile(result.file ?? '', 'utf8');
    for (const expected of [
      'create table public.service_notes (',
      'alter table public.yearly_financial_inputs add column other_exp numeric(14,2);',
      "comment on column public.yearly_financial_inputs.other_exp is 'Other expenses, in dollars.';",
      'CREATE INDEX yearly_financial_inputs_store_year ON public.yearly_financial_inputs USING btree (store_id, year);',
      'drop policy "Admins delete stores" on public.stores;',
      "CREATE OR REPLACE FUNCTION private.history_ignores(p_field text)",
      "insert into private.synced_tables (name, key_columns) values ('service_notes', array['store_id', 'note_date']);",
      'alter publication supabase_realtime add table public.service_notes;',
    ]) expect(sql).toContain(expected);
  });

  it('lists what it cannot write safely, to be written by hand', async () => {
    const dir = await copyOfSupabase();
    await edit(path.join(dir, 'schemas/tables/public.yearly_financial_inputs.sql'), (text) => text.replace('  ros numeric(14, 2),', '  ros numeric(16, 2),'));
    const result = await diffSchema({ name: 'wider_hours', version: '29990101000000', supabase: dir, migrations: path.join(dir, 'migrations'), log: quiet });
    expect(result.byHand).toEqual([
      'column public.yearly_financial_inputs.ros: type changes from numeric(14,2) to numeric(16,2): write the alter table ... type ... using ... by hand, for the rows already stored',
    ]);
    expect(result.sql).toContain('-- To write by hand before this migration is done:');
    expect(result.remaining).toContain('public.yearly_financial_inputs.ros: type differs');
  });
});
