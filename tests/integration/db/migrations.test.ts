import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, migrationsDir } from '../../../supabase/local/db/migrate.ts';
import { syncedTableNames, syncedTables } from '../../../src/data/synced-tables.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

for (const engine of engines) {
  describe(`migrations on ${engine}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(engine, { seed: false });
    });
    afterAll(() => db?.dispose());

    it('apply from zero, each recorded once, and a second run applies nothing', async () => {
      const files = (await readdir(migrationsDir)).filter((name) => name.endsWith('.sql')).sort();
      const { rows } = await db.query<{ name: string }>(
        'select name from supabase_migrations.schema_migrations order by version',
      );
      expect(rows.map((row) => row.name)).toEqual(files);
      expect(await applyMigrations(db)).toEqual([]);
    });

    it('enable row-level security on every table of the public schema', async () => {
      const { rows } = await db.query<{ table: string }>(
        `select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind = 'r' and not c.relrowsecurity`,
      );
      expect(rows).toEqual([]);
    });

    it('give every public table the sync columns, the stamping trigger and a realtime publication entry', async () => {
      const { rows } = await db.query<{ table: string; columns: number; triggers: number; published: number }>(
        `select c.relname as table,
           (select count(*)::int from information_schema.columns ic
             where ic.table_schema = 'public' and ic.table_name = c.relname
               and ic.column_name in ('id', 'updated_at', 'sync_xid', 'deleted_at')) as columns,
           (select count(*)::int from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'stamp_sync_columns') as triggers,
           (select count(*)::int from pg_publication_tables p
             where p.pubname = 'supabase_realtime' and p.schemaname = 'public' and p.tablename = c.relname) as published
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind = 'r' order by 1`,
      );
      expect(rows.map((row) => row.table)).toEqual([...syncedTableNames].sort());
      for (const row of rows) expect(row, row.table).toMatchObject({ columns: 4, triggers: 1, published: 1 });
    });

    it('register every synced table with the natural key the device keys it by', async () => {
      const { rows } = await db.query<{ name: string; key_columns: string[] }>('select name, key_columns from private.synced_tables order by name');
      expect(Object.fromEntries(rows.map((row) => [row.name, row.key_columns]))).toEqual(
        Object.fromEntries(syncedTableNames.map((name) => [name, [...syncedTables[name].key]])),
      );
    });

    it('let pull_changes serve exactly the public tables', async () => {
      const tables = await db.query<{ table: string }>(
        `select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind = 'r'`,
      );
      for (const { table } of tables.rows) {
        await expect(
          db.query("select public.pull_changes($1, null, 1)", [table]),
          table,
        ).resolves.toBeTruthy();
      }
    });

    it('stamp updated_at and sync_xid from the server, whatever the client sends', async () => {
      const { rows } = await db.query<{ server_clock: boolean; xid_is_current: boolean }>(
        `insert into public.stores (name, updated_at, sync_xid) values ('Clock Test', '2000-01-01', '1')
         returning updated_at > '2001-01-01' as server_clock, sync_xid = pg_current_xact_id() as xid_is_current`,
      );
      expect(rows[0]).toEqual({ server_clock: true, xid_is_current: true });
    });

    it('pin the search_path of every security definer function', async () => {
      const { rows } = await db.query<{ name: string }>(
        `select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where n.nspname in ('public', 'private') and p.prosecdef
           and not exists (select 1 from unnest(p.proconfig) c where c like 'search_path=%')`,
      );
      expect(rows).toEqual([]);
    });
  });
}
