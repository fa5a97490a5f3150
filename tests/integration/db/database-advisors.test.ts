/**
 * What a hosted project's Security and Performance Advisors check, held on every test
 * engine with catalog queries of our own (docs/security.md, "Database advisors"):
 * nothing the API serves runs as its owner for anonymous or signed-in callers, every
 * table it serves has row-level security and every view reads as the caller, every
 * function has a fixed search_path, every foreign key has an index, and the migration
 * that turns GraphQL off applies where there is no GraphQL to turn off.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsDir } from '../../../supabase/local/db/migrate.ts';
import { resolveRestSettings } from '../../../supabase/local/rest/rest-settings.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

/**
 * The schemas the API serves: a hosted project's defaults (its "Exposed schemas" setting),
 * and whatever the embedded backend is set to serve.
 */
const exposedSchemas = [...new Set(['public', 'graphql_public', ...resolveRestSettings({}, {}).schemas])];

/** Schemas that Supabase (or the embedded backend, copying it) owns: not the product's to lint. */
const platformSchemas = ['auth', 'extensions', 'supabase_migrations', 'realtime_local', 'graphql', 'graphql_public', 'storage', 'realtime'];

/** The product's own schemas: every schema but the system's and the platform's. */
const productSchemasSql = `
  select n.oid from pg_catalog.pg_namespace n
  where n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
    and n.nspname <> all ($1::text[])`;

/**
 * Owner-run functions that signed-in users may reach outside the API, each on purpose:
 * the caller's own store and admin flag (read from the account, so changes apply at
 * once), whether the caller's session lacks the second factor it needs (read from the
 * caller's own factors, for the change history's policy), an admin's reads across stores
 * (refusing anyone else), the registry lookup.
 */
const definerFunctionsForSignedIn = [
  'private.caller_is_admin()',
  'private.caller_store_id()',
  'private.second_factor_missing()',
  'private.store_deletion_counts(uuid)',
  'private.store_month_rows(uuid,date)',
  'private.synced_table_key(text)',
];

const graphqlMigration = '20260710000200_graphql_endpoint_off.sql';

for (const engine of engines) {
  describe(`what the database advisors check, on ${engine}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(engine);
    });
    afterAll(() => db?.dispose());

    it('serves anonymous and signed-in callers no function that runs as its owner', async () => {
      const { rows } = await db.query<{ fn: string; roles: string[] }>(
        `select p.oid::regprocedure::text as fn,
                array_remove(array[
                  case when pg_catalog.has_function_privilege('anon', p.oid, 'execute') then 'anon' end,
                  case when pg_catalog.has_function_privilege('authenticated', p.oid, 'execute') then 'authenticated' end
                ], null) as roles
         from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
         where n.nspname = any ($1::text[]) and p.prosecdef
         order by 1`,
        [exposedSchemas],
      );
      expect(rows.filter((row) => row.roles.length > 0)).toEqual([]);
    });

    it('lets signed-in users reach outside the API only the owner-run functions meant for them, and anonymous callers none', async () => {
      const reachable = (role: string) =>
        db.query<{ fn: string }>(
          `select p.oid::regprocedure::text as fn
           from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
           where n.oid in (${productSchemasSql}) and n.nspname <> all ($3::text[]) and p.prosecdef
             and p.prorettype <> 'pg_catalog.trigger'::pg_catalog.regtype
             and pg_catalog.has_schema_privilege($2, n.oid, 'usage')
             and pg_catalog.has_function_privilege($2, p.oid, 'execute')
           order by 1`,
          [platformSchemas, role, exposedSchemas],
        );
      expect((await reachable('authenticated')).rows.map((row) => row.fn)).toEqual(definerFunctionsForSignedIn);
      expect((await reachable('anon')).rows).toEqual([]);
    });

    it('has those private functions refuse a member who is not an admin, and anonymous callers', async () => {
      const manager = { role: 'authenticated', userId: demo.managerId } as const;
      expect(await attempt(db, manager, `select private.store_month_rows($1, '2034-02-01')`, [demo.storeB])).toMatchObject({ error: '42501' });
      expect(await attempt(db, manager, `select private.store_deletion_counts($1)`, [demo.storeB])).toMatchObject({ error: '42501' });
      expect(await attempt(db, { role: 'anon' }, `select private.caller_is_admin()`)).toMatchObject({ error: '42501' });
    });

    it('has row-level security on every table the API serves', async () => {
      const { rows } = await db.query<{ table: string }>(
        `select format('%I.%I', n.nspname, c.relname) as table
         from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         where n.nspname = any ($1::text[]) and c.relkind in ('r', 'p') and not c.relrowsecurity
         order by 1`,
        [exposedSchemas],
      );
      expect(rows).toEqual([]);
    });

    it('serves no view that reads as its owner (each one is security_invoker)', async () => {
      const { rows } = await db.query<{ view: string; options: string[] | null }>(
        `select format('%I.%I', n.nspname, c.relname) as view, c.reloptions as options
         from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
         where n.nspname = any ($1::text[]) and c.relkind in ('v', 'm')
         order by 1`,
        [exposedSchemas],
      );
      expect(rows.length).toBeGreaterThan(0);
      const invoker = (options: string[] | null) =>
        (options ?? []).some((option) => /^security_invoker=(true|on|yes|1)$/i.test(option));
      expect(rows.filter((row) => !invoker(row.options))).toEqual([]);
    });

    it('fixes the search_path of every function of the product', async () => {
      const { rows } = await db.query<{ fn: string }>(
        `select p.oid::regprocedure::text as fn
         from pg_catalog.pg_proc p
         where p.pronamespace in (${productSchemasSql})
           and not exists (select 1 from pg_catalog.pg_depend d where d.objid = p.oid and d.deptype = 'e')
           and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) setting where setting like 'search\\_path=%')
         order by 1`,
        [platformSchemas],
      );
      expect(rows).toEqual([]);
    });

    it('indexes every foreign key with an index that starts with its columns, in its order', async () => {
      const { rows: keys } = await db.query<{ key: string }>(
        `select count(*)::text as key from pg_catalog.pg_constraint k where k.contype = 'f' and k.connamespace in (${productSchemasSql})`,
        [platformSchemas],
      );
      expect(Number(keys[0]?.key)).toBeGreaterThan(20);
      const { rows } = await db.query<{ table: string; key: string; columns: string }>(
        `select k.conrelid::regclass::text as table, k.conname::text as key,
                (select string_agg(a.attname, ', ' order by c.ord) from unnest(k.conkey) with ordinality c(attnum, ord)
                 join pg_catalog.pg_attribute a on a.attrelid = k.conrelid and a.attnum = c.attnum) as columns
         from pg_catalog.pg_constraint k
         where k.contype = 'f' and k.connamespace in (${productSchemasSql})
           and not exists (
             select 1 from pg_catalog.pg_index i
             where i.indrelid = k.conrelid and i.indisvalid and i.indpred is null
               and i.indnkeyatts >= cardinality(k.conkey)
               and (i.indkey::int2[])[0:cardinality(k.conkey) - 1] = k.conkey)
         order by 1, 2`,
        [platformSchemas],
      );
      expect(rows).toEqual([]);
    });
  });

  describe(`the migration that turns GraphQL off, on ${engine}, where GraphQL was never installed`, () => {
    let sql: string;
    let db: TestDatabase;
    beforeAll(async () => {
      sql = await readFile(path.join(migrationsDir, graphqlMigration), 'utf8');
      db = await createTestDatabase(engine, { migrate: false });
    });
    afterAll(() => db?.dispose());

    it('applies cleanly on its own and again, and leaves no GraphQL extension', async () => {
      const installed = async () =>
        (await db.query<{ n: number }>(`select count(*)::int as n from pg_catalog.pg_extension where extname = 'pg_graphql'`)).rows[0]?.n;
      expect(await installed()).toBe(0);
      await db.transaction((tx) => tx.exec(sql));
      await db.transaction((tx) => tx.exec(sql));
      expect(await installed()).toBe(0);
    });
  });
}
