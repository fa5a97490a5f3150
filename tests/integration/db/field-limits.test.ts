/**
 * The migrations' CHECK constraints and the field limits of src/domain/limits.ts say the
 * same thing, on every engine: probes generated from the table (each bound accepted, just
 * outside refused, NaN and Infinity refused, over-long text and lists refused) run against
 * each column's own constraint, and the database's columns are introspected so that a
 * new number, text or list column without a limit fails here.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../../supabase/local/db/database.ts';
import { isPostgresError } from '../../../supabase/local/db/database.ts';
import type { FieldLimit, NumberLimit } from '../../../src/domain/limits.ts';
import { fieldLimits } from '../../../src/domain/limits.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

/** What should happen: stored, refused by the column's own rule, or refused by the column's type before any rule. */
type Expectation = 'accepted' | 'rule' | 'type';
type Probe = { name: string; value: string | null; expect: Expectation | ((integer: boolean) => Expectation); row?: Record<string, string> };

const tables = fieldLimits as Record<string, Record<string, FieldLimit>>;
const constraintName = (table: string, column: string, limit: FieldLimit) =>
  `${table}_${column}_${limit.kind === 'code' ? 'check' : limit.kind === 'text' || limit.kind === 'list' ? 'length' : 'in_range'}`;

/** A valid row of each table for a fresh store and advisor; the probed column is set on top. */
function baseRow(table: string, storeId: string, advisorId: string): Record<string, string> {
  const month = { year: '2031', month: '3' };
  const day = { ...month, entry_date: '2031-03-01' };
  const rows: Record<string, Record<string, string>> = {
    stores: { name: 'Limits Store' },
    store_settings: { store_id: storeId },
    daily_inputs: { store_id: storeId, ...month, entry_date: '2031-03-04', day_of_week_iso: '2', row_identifier: 'CP', metric_type: 'hours' },
    weekly_store_performance: { store_id: storeId, year: '2031', week_start_date: '2031-03-02', week_end_date: '2031-03-08' },
    monthly_targets: { store_id: storeId, ...month, metric_key: 'cpElr' },
    monthly_labor_gross_inputs: { store_id: storeId, month_year: '2031-03-01', labor_type: 'customerPay' },
    yearly_financial_inputs: { store_id: storeId, ...month },
    user_dashboard_preferences: { user_id: demo.managerId, store_id: storeId },
    front_end_team_advisors: { store_id: storeId, advisor_name: 'Limits Advisor' },
    front_end_team_targets: { store_id: storeId, ...month },
    advisor_survey_data: { store_id: storeId, advisor_id: advisorId, ...month },
    store_calendar_days: { store_id: storeId, year: '2031', calendar_date: '2031-03-17' },
    monthly_operational_inputs: { store_id: storeId, ...month },
    month_closures: { store_id: storeId, year: '2031', month_start: '2031-03-01', closed: 'false' },
  };
  if (rows[table]) return rows[table];
  if (table.startsWith('front_end_team_advisor_') || table === 'front_end_team_daily_performance') return { store_id: storeId, advisor_id: advisorId, ...day };
  if (table.startsWith('front_end_team_')) return { store_id: storeId, ...day };
  throw new Error(`no base row for ${table}`);
}

/** Fixed-shape codes need a valid example of their longest length. */
const longestValid: Record<string, string> = {
  'stores.subdomain': 'a'.repeat(63),
  'daily_inputs.year_week_actual': '2031-10',
  'monthly_targets.metric_key': `a${'B'.repeat(63)}`,
  'store_settings.work_week': '1111110',
  'month_closures.work_week': '1111110',
};

const text = (n: number) => String(n);
/** The next value past a bound, in the field's own step (0.01, or 1 for whole numbers). */
function beyond(limit: NumberLimit, bound: 'min' | 'max'): string {
  const step = limit.whole ? 1 : 10 ** -limit.decimals;
  const scaled = Math.round(limit[bound] / step) + (bound === 'max' ? 1 : -1);
  return (scaled * step).toFixed(limit.decimals);
}

// An integer column cannot even hold NaN or a fraction; a numeric one can, and its rule refuses them.
const ruleUnlessInteger = (integer: boolean): Expectation => (integer ? 'type' : 'rule');

function numberProbes(limit: NumberLimit): Probe[] {
  const probes: Probe[] = [
    { name: `the minimum ${limit.min}`, value: text(limit.min), expect: 'accepted' },
    { name: `the maximum ${limit.max}`, value: text(limit.max), expect: 'accepted' },
    { name: 'just below the minimum', value: beyond(limit, 'min'), expect: 'rule' },
    { name: 'just above the maximum', value: beyond(limit, 'max'), expect: 'rule' },
    { name: 'NaN', value: 'NaN', expect: ruleUnlessInteger },
    // Numeric columns with a precision cannot hold an infinity (22003); integers cannot parse one (22P02).
    { name: 'Infinity', value: 'Infinity', expect: 'type' },
    { name: '-Infinity', value: '-Infinity', expect: 'type' },
    { name: 'a 20-digit number', value: '12345678901234567890', expect: 'type' },
  ];
  if (limit.whole) probes.push({ name: 'a fraction', value: text(limit.min + 0.5), expect: ruleUnlessInteger });
  return probes;
}

function probesFor(table: string, column: string, limit: FieldLimit): Probe[] {
  switch (limit.kind) {
    case 'depends': {
      const cases = Object.entries(limit.cases).map(([key, caseLimit]) => [key, caseLimit] as const);
      if (limit.otherwise) cases.push(['someLaterTarget', limit.otherwise]);
      return cases.flatMap(([key, caseLimit]) =>
        numberProbes(caseLimit).map((probe) => ({ ...probe, name: `${limit.on} ${key}: ${probe.name}`, row: { [limit.on]: key } })),
      );
    }
    case 'text':
      return [
        { name: `${limit.maxLength} characters`, value: 'x'.repeat(limit.maxLength), expect: 'accepted' },
        { name: `${limit.maxLength} emoji (one character each, as Postgres counts)`, value: '😀'.repeat(limit.maxLength), expect: 'accepted' },
        { name: `${limit.maxLength + 1} characters`, value: 'x'.repeat(limit.maxLength + 1), expect: 'rule' },
        limit.required ? { name: 'blank', value: '   ', expect: 'rule' } : { name: 'no value', value: null, expect: 'accepted' },
      ];
    case 'list': {
      const items = (n: number) => `{${Array.from({ length: n }, () => 'cpElr').join(',')}}`;
      return [
        { name: `${limit.maxItems} items`, value: items(limit.maxItems), expect: 'accepted' },
        { name: `${limit.maxItems + 1} items`, value: items(limit.maxItems + 1), expect: 'rule' },
      ];
    }
    case 'code': {
      const valid = limit.values ?? [longestValid[`${table}.${column}`] ?? ''];
      return [
        ...valid.map((value): Probe => ({ name: `"${value}"`, value, expect: 'accepted' })),
        { name: 'a value one character too long', value: 'a'.repeat(limit.maxLength + 1), expect: 'rule' },
        { name: 'an unknown value', value: 'Q', expect: 'rule' },
      ];
    }
    default:
      return numberProbes(limit);
  }
}

type Attempt = { ok: true } | { ok: false; code: string; message: string };

async function tryInsert(tx: Queryable, table: string, row: Record<string, string | null>): Promise<Attempt> {
  const columns = Object.keys(row);
  await tx.query('savepoint probe');
  try {
    await tx.query(
      `insert into public.${table} (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      Object.values(row),
    );
    return { ok: true };
  } catch (error) {
    if (!isPostgresError(error)) throw error;
    return { ok: false, code: error.code ?? '', message: error.message };
  } finally {
    await tx.query('rollback to savepoint probe');
  }
}

const rollback = new Error('rollback');

for (const engine of engines) {
  describe(`field limits and CHECK constraints agree on ${engine}`, () => {
    let db: TestDatabase;
    let integerColumns: Set<string>;
    beforeAll(async () => {
      db = await createTestDatabase(engine);
      const { rows } = await db.query<{ name: string }>(
        `select table_name || '.' || column_name as name from information_schema.columns where table_schema = 'public' and data_type = 'integer'`,
      );
      integerColumns = new Set(rows.map((r) => r.name));
    });
    afterAll(() => db?.dispose());

    it('give every number, text and list column of every public table a limit, and no limit to a column that does not exist', async () => {
      const { rows } = await db.query<{ table_name: string; column_name: string }>(
        `select c.table_name, c.column_name from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
         where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
           and c.data_type in ('smallint', 'integer', 'bigint', 'numeric', 'real', 'double precision', 'text', 'character varying', 'character', 'ARRAY', 'jsonb', 'json')
         order by 1, 2`,
      );
      const inDatabase = rows.map((r) => `${r.table_name}.${r.column_name}`);
      const inTable = Object.entries(tables).flatMap(([table, columns]) => Object.keys(columns).map((column) => `${table}.${column}`));
      expect(inDatabase.filter((name) => !inTable.includes(name)), 'columns without a field limit').toEqual([]);
      expect(inTable.filter((name) => !inDatabase.includes(name)), 'limits for columns that do not exist').toEqual([]);
    });

    it('give each limited column exactly one rule of its own, under the name the device maps back, validated on the demo data', async () => {
      const { rows } = await db.query<{ table_name: string; column_name: string; name: string; validated: boolean }>(
        `select con.conrelid::regclass::text as table_name, a.attname::text as column_name, con.conname::text as name, con.convalidated as validated
         from pg_constraint con join pg_attribute a on a.attrelid = con.conrelid and a.attnum = con.conkey[1]
         where con.contype = 'c' and con.connamespace = 'public'::regnamespace and cardinality(con.conkey) = 1`,
      );
      for (const [table, columns] of Object.entries(tables)) {
        for (const [column, limit] of Object.entries(columns)) {
          const own = rows.filter((r) => r.table_name === table && r.column_name === column);
          const expected = constraintName(table, column, limit);
          // Dependent limits read a second column, so their rule is not single-column.
          if (limit.kind === 'depends') {
            expect(own, `${table}.${column}`).toEqual([]);
            const { rows: dependent } = await db.query<{ validated: boolean }>(
              `select convalidated as validated from pg_constraint where conname = $1 and conrelid = $2::regclass`,
              [expected, `public.${table}`],
            );
            expect(dependent, expected).toEqual([{ validated: true }]);
            continue;
          }
          expect(own.map((r) => ({ name: r.name, validated: r.validated })), `${table}.${column}`).toEqual([{ name: expected, validated: true }]);
          expect(expected.length, 'Postgres truncates names past 63 characters').toBeLessThanOrEqual(63);
        }
      }
    });

    const probes = Object.entries(tables).flatMap(([table, columns]) =>
      Object.entries(columns).map(([column, limit]) => ({ table, column, limit, cases: probesFor(table, column, limit) })),
    );

    it.each(probes.map((p) => [`${p.table}.${p.column}`, p] as const))('%s: accepts its bounds and refuses past them', async (_name, probe) => {
      const { table, column, limit, cases } = probe;
      const own = constraintName(table, column, limit);
      const outcomes: Array<{ probe: string; outcome: string }> = [];
      const expected: Array<{ probe: string; outcome: string }> = [];
      await db
        .transaction(async (tx) => {
          // Only this column's own rule stays (undone with the transaction), so each probe tests exactly it.
          const others = await tx.query<{ name: string }>(
            `select conname::text as name from pg_constraint where conrelid = $1::regclass and contype = 'c' and conname <> $2`,
            [`public.${table}`, own],
          );
          for (const { name } of others.rows) await tx.query(`alter table public.${table} drop constraint ${name}`);
          const storeId = randomUUID();
          const advisorId = randomUUID();
          await tx.query(`insert into public.stores (id, name) values ($1, 'Limits Store')`, [storeId]);
          await tx.query(`insert into public.front_end_team_advisors (id, store_id, advisor_name) values ($1, $2, 'Limits Advisor')`, [advisorId, storeId]);
          for (const c of cases) {
            const attempt = await tryInsert(tx, table, { ...baseRow(table, storeId, advisorId), ...c.row, [column]: c.value });
            const outcome = attempt.ok
              ? 'accepted'
              : attempt.code === '23514' && attempt.message.includes(`"${own}"`)
                ? 'rule'
                : ['22P02', '22003'].includes(attempt.code)
                  ? 'type'
                  : `${attempt.code}: ${attempt.message}`;
            outcomes.push({ probe: c.name, outcome });
            const integer = integerColumns.has(`${table}.${column}`);
            expected.push({ probe: c.name, outcome: typeof c.expect === 'function' ? c.expect(integer) : c.expect });
          }
          throw rollback;
        })
        .catch((error: unknown) => {
          if (error !== rollback) throw error;
        });
      expect(outcomes).toEqual(expected);
    });
  });
}
