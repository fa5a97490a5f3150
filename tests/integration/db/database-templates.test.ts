/**
 * Test databases are copies of a template built once (tests/support/database-templates.ts).
 * A copy must be what building a database afresh gives: the same migrations, tables,
 * policies, functions and triggers, and the same seeded rows, on every engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../supabase/local/db/database.ts';
import { applyMigrations, seed } from '../../../supabase/local/db/migrate.ts';
import type { EngineName, TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

/** What a database holds, in a form two databases can be compared by. */
async function shape(db: Database): Promise<Record<string, unknown>> {
  const rows = async (sql: string) => (await db.query(sql)).rows;
  const tables = await rows(
    `select table_schema || '.' || table_name as name from information_schema.tables
      where table_schema in ('public', 'auth', 'supabase_migrations') and table_type = 'BASE TABLE' order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables as Array<{ name: string }>) {
    counts[name] = (await db.query<{ n: number }>(`select count(*)::integer as n from ${name}`)).rows[0]?.n ?? -1;
  }
  return {
    migrations: await rows('select version, name from supabase_migrations.schema_migrations order by version'),
    counts,
    policies: await rows(`select schemaname, tablename, policyname, cmd, qual, with_check from pg_policies order by 1, 2, 3`),
    functions: await rows(
      `select n.nspname, p.proname, md5(p.prosrc) as body from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'auth') order by 1, 2, 3`,
    ),
    triggers: await rows(`select event_object_table, trigger_name, action_timing, event_manipulation
        from information_schema.triggers order by 1, 2, 4`),
    stores: await rows('select id, name from public.stores order by id'),
    users: await rows('select id, email from auth.users order by id'),
    // Row contents as well as counts: every seeded figure, summed per table that has one.
    dailyValues: await rows(
      `select store_id, metric_type, round(sum(value)::numeric, 2)::text as total from public.daily_inputs group by 1, 2 order by 1, 2`,
    ),
  };
}

type Shapes = { migrated: Record<string, unknown>; seeded: Record<string, unknown> };
const afresh = new Map<EngineName, Promise<Shapes>>();

/** What a database built step by step gives, as before templates existed: migrated, then seeded. */
function builtAfresh(engine: EngineName): Promise<Shapes> {
  let shapes = afresh.get(engine);
  if (!shapes) {
    shapes = (async () => {
      const fresh = await createTestDatabase(engine, { migrate: false });
      try {
        await applyMigrations(fresh);
        const migrated = await shape(fresh);
        await seed(fresh);
        return { migrated, seeded: await shape(fresh) };
      } finally {
        await fresh.dispose();
      }
    })();
    afresh.set(engine, shapes);
  }
  return shapes;
}

for (const engine of engines) {
  describe(`test databases copied from templates on ${engine}`, () => {
    const opened: TestDatabase[] = [];
    afterAll(async () => {
      await Promise.all(opened.map((db) => db.dispose()));
    });

    it('a seeded copy holds what migrating and seeding afresh gives', async () => {
      const copy = await createTestDatabase(engine);
      opened.push(copy);
      const expected = (await builtAfresh(engine)).seeded;
      expect((expected.stores as unknown[]).length).toBeGreaterThan(0);
      expect(await shape(copy)).toEqual(expected);
    });

    it('a copy without the seed holds what migrating afresh gives, and no demo rows', async () => {
      const copy = await createTestDatabase(engine, { seed: false });
      opened.push(copy);
      const actual = await shape(copy);
      expect(actual).toEqual((await builtAfresh(engine)).migrated);
      expect(actual.stores).toEqual([]);
    });

    describe('two copies', () => {
      let first: TestDatabase;
      let second: TestDatabase;
      beforeAll(async () => {
        first = await createTestDatabase(engine);
        second = await createTestDatabase(engine);
        opened.push(first, second);
      });

      it('are separate databases: a write to one is not in the other', async () => {
        await first.query(`update public.stores set name = 'Renamed in the first copy'`);
        const names = (db: Database) => db.query<{ name: string }>('select name from public.stores order by id');
        const renamed = (await names(first)).rows;
        expect(renamed.length).toBeGreaterThan(0);
        expect(renamed.every((row) => row.name === 'Renamed in the first copy')).toBe(true);
        expect((await names(second)).rows.some((row) => row.name === 'Renamed in the first copy')).toBe(false);
      });
    });
  });
}

describe('test databases not migrated', () => {
  it('are bootstrapped only, for tests that apply migrations in steps', async () => {
    const db = await createTestDatabase(engines[0] ?? 'pglite', { migrate: false });
    try {
      const { rows } = await db.query<{ n: number }>(
        `select count(*)::integer as n from information_schema.tables where table_schema = 'public'`,
      );
      expect(rows[0]?.n).toBe(0);
    } finally {
      await db.dispose();
    }
  });
});
