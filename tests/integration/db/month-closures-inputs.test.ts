/**
 * A closed month is closed for everything its figures are computed from. The list below
 * names each table a month's figures read, with a row of that table in a given month;
 * every synced table is either in it or named, with the reason, as not belonging to one
 * month, so a new table fails here until someone decides. For each input: an insert, an
 * update, a retirement (deleted_at) and a delete of a closed month's row are refused with
 * 23M01 "month closed by NAME on DATE", by SQL as the API runs it and by the device's push;
 * once an admin reopens the month, each is taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../support/as-role.ts';
import { attempt } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

type Month = { year: number; month: number };
type Input = {
  /** A row of the month, with its store; `n` makes a second row of another key where the table has one. */
  row: (m: Month) => Record<string, unknown>;
  /** A figure column and a new value for it. */
  change: [string, unknown];
};

const pad = (n: number) => String(n).padStart(2, '0');
const first = (m: Month) => `${m.year}-${pad(m.month)}-01`;
const isoDay = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() || 7;
const onDay = (m: Month, day: number) => {
  const entry_date = `${m.year}-${pad(m.month)}-${pad(day)}`;
  return { store_id: demo.storeA, entry_date, year: m.year, month: m.month };
};
/** The grid row of a date (from the Sunday on or before the 1st) and its ISO week, which a daily value must carry. */
function weeksOf(date: string) {
  const day = new Date(`${date}T00:00:00Z`);
  const firstDay = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
  const week_of_month_display = Math.floor((day.getUTCDate() - 1 + firstDay.getUTCDay()) / 7) + 1;
  const thursday = new Date(day);
  thursday.setUTCDate(day.getUTCDate() + 4 - (day.getUTCDay() || 7));
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const isoWeek = Math.ceil(((thursday.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return { week_of_month_display, year_week_actual: `${thursday.getUTCFullYear()}-${pad(isoWeek)}` };
}
const ofMonth = (m: Month) => ({ store_id: demo.storeA, year: m.year, month: m.month });
const advisor = { advisor_id: demo.advisorA };

/** Every input of a month's figures: the grid, week parts, targets, month-end figures, the advisors', the calendar. */
export const monthInputs: Record<string, Input> = {
  daily_inputs: {
    row: (m) => {
      const day = onDay(m, 10);
      return { ...day, day_of_week_iso: isoDay(day.entry_date), ...weeksOf(day.entry_date), row_identifier: 'CP', metric_type: 'hours', value: 4 };
    },
    change: ['value', 9],
  },
  weekly_store_performance: {
    row: (m) => ({ store_id: demo.storeA, year: m.year, week_start_date: first(m), week_end_date: `${m.year}-${pad(m.month)}-0${7 - isoDay(first(m)) % 7}`, work_days: 5 }),
    change: ['work_days', 4],
  },
  monthly_targets: { row: (m) => ({ ...ofMonth(m), metric_key: 'cpElr', target_value: 120 }), change: ['target_value', 130] },
  monthly_labor_gross_inputs: {
    row: (m) => ({ store_id: demo.storeA, month_year: first(m), labor_type: 'customerPay', gross_value: 1000 }),
    change: ['gross_value', 2000],
  },
  monthly_operational_inputs: { row: (m) => ({ ...ofMonth(m), shop_supplies: 50 }), change: ['shop_supplies', 60] },
  yearly_financial_inputs: { row: (m) => ({ ...ofMonth(m), sales: 1000 }), change: ['sales', 2000] },
  store_calendar_days: {
    row: (m) => ({ store_id: demo.storeA, calendar_date: `${m.year}-${pad(m.month)}-10`, year: m.year, is_work_day: false }),
    change: ['is_work_day', true],
  },
  front_end_team_daily_performance: { row: (m) => ({ ...onDay(m, 1), ...advisor, days_worked: 3 }), change: ['days_worked', 4] },
  front_end_team_advisor_totals: { row: (m) => ({ ...onDay(m, 1), ...advisor, total_ros: 3 }), change: ['total_ros', 4] },
  front_end_team_advisor_op_codes: { row: (m) => ({ ...onDay(m, 1), ...advisor, alignments: 3 }), change: ['alignments', 4] },
  front_end_team_advisor_surveys: { row: (m) => ({ ...onDay(m, 1), ...advisor, surveys_count: 3 }), change: ['surveys_count', 4] },
  front_end_team_totals: { row: (m) => ({ ...onDay(m, 1), total_ros: 3 }), change: ['total_ros', 4] },
  front_end_team_op_codes: { row: (m) => ({ ...onDay(m, 1), alignments: 3 }), change: ['alignments', 4] },
  front_end_team_surveys: { row: (m) => ({ ...onDay(m, 1), surveys_count: 3 }), change: ['surveys_count', 4] },
  front_end_team_targets: { row: (m) => ({ ...ofMonth(m), elr: 100 }), change: ['elr', 110] },
  advisor_survey_data: { row: (m) => ({ ...ofMonth(m), ...advisor, surveys_count: 3 }), change: ['surveys_count', 4] },
};

/** Synced tables that are not one month's: what of them a month uses is kept with its closure or is no figure. */
export const notOfOneMonth: Record<string, string> = {
  stores: 'the store itself',
  store_settings: "the work pattern and Work Mix target, which a closure keeps as they were when the month closed",
  user_dashboard_preferences: "a person's choice of tiles",
  front_end_team_advisors: 'the team list (names), not figures',
  month_closures: 'the closure itself, stamped by the server',
};

const sqlValue = (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value));
const insertSql = (table: string, row: Record<string, unknown>) =>
  `insert into public.${table} (${Object.keys(row).join(', ')}) values (${Object.values(row).map(sqlValue).join(', ')})`;
const whereSql = (row: Record<string, unknown>, key: string[]) => key.map((column) => `${column} = ${sqlValue(row[column])}`).join(' and ');
const pushSql = (table: string, rows: unknown[]) => `select public.push_changes('${table}', '${JSON.stringify(rows).replaceAll("'", "''")}'::jsonb)`;

/** June holds a row of every input; July is closed empty, to take the inserts. */
const june: Month = { year: 2031, month: 6 };
const july: Month = { year: 2031, month: 7 };
const manager: Actor = { role: 'authenticated', userId: demo.managerId };

for (const engine of engines) {
  describe(`a closed month refuses every input of its figures, on ${engine}`, () => {
    let db: TestDatabase;
    let keys: Record<string, string[]> = {};
    let reason: RegExp;

    async function commitAs(userId: string, sql: string) {
      await db.transaction(async (tx) => {
        await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
          JSON.stringify({ sub: userId, role: 'authenticated' }),
        ]);
        await tx.query(sql);
      });
    }

    /** Each write to a closed month's input, as a member through the API or the device's push, and the service role's delete. */
    function writes(table: string): Array<[string, Actor, string]> {
      const input = monthInputs[table] as Input;
      const stored = input.row(june);
      const where = whereSql(stored, keys[table] as string[]);
      const [column, value] = input.change;
      return [
        ['insert', manager, insertSql(table, input.row(july))],
        ['push of a new row', manager, pushSql(table, [input.row(july)])],
        ['update', manager, `update public.${table} set ${column} = ${sqlValue(value)} where ${where}`],
        ['push of a change', manager, pushSql(table, [{ ...stored, [column]: value }])],
        ['retirement', manager, `update public.${table} set deleted_at = now() where ${where}`],
        ['delete', { role: 'service_role' }, `delete from public.${table} where ${where}`],
      ];
    }

    beforeAll(async () => {
      db = await createTestDatabase(engine);
      const { rows } = await db.query<{ name: string; key_columns: string[] }>('select name, key_columns from private.synced_tables');
      keys = Object.fromEntries(rows.map((r) => [r.name, r.key_columns]));
      for (const [table, input] of Object.entries(monthInputs)) await db.query(insertSql(table, input.row(june)));
      for (const m of [june, july]) {
        await commitAs(demo.managerId, `insert into public.month_closures (store_id, month_start, year) values ('${demo.storeA}', '${first(m)}', ${m.year})`);
      }
      const closure = await db.query<{ name: string; on: string }>(
        `select closed_by_name as name, to_char(closed_at, 'YYYY-MM-DD') as on from public.month_closures where month_start = '2031-06-01'`,
      );
      const { name, on } = closure.rows[0] as { name: string; on: string };
      reason = new RegExp(`^month closed by ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} on ${on}$`);
    });
    afterAll(() => db?.dispose());

    it('lists every synced table as an input of a month or says why it is none', () => {
      const listed = [...Object.keys(monthInputs), ...Object.keys(notOfOneMonth)].sort();
      expect(listed).toEqual(Object.keys(keys).sort());
    });

    it.each(Object.keys(monthInputs))('%s: insert, update, retirement and delete of a closed month are refused', async (table) => {
      const outcomes = [];
      for (const [path, actor, sql] of writes(table)) {
        const outcome = await attempt(db, actor, sql);
        outcomes.push({ path, outcome: 'error' in outcome ? `${outcome.error}: ${reason.test(outcome.message) ? 'month closed by NAME on DATE' : outcome.message}` : 'taken' });
      }
      expect(outcomes).toEqual(writes(table).map(([path]) => ({ path, outcome: '23M01: month closed by NAME on DATE' })));
    });

    describe('once an admin reopens the months', () => {
      beforeAll(async () => {
        await commitAs(demo.adminId, `update public.month_closures set closed = false where store_id = '${demo.storeA}' and year = 2031`);
      });

      it.each(Object.keys(monthInputs))('%s: each of those writes is taken', async (table) => {
        const outcomes = [];
        for (const [path, actor, sql] of writes(table)) {
          const outcome = await attempt(db, actor, sql);
          outcomes.push({ path, outcome: 'error' in outcome ? `${outcome.error}: ${outcome.message}` : 'taken' });
        }
        expect(outcomes).toEqual(writes(table).map(([path]) => ({ path, outcome: 'taken' })));
      });
    });
  });
}
