import { describe, expect, it } from 'vitest';
import type { Refusal } from '../../../src/domain/refusals.ts';
import { explainRefusal } from '../../../src/domain/refusals.ts';

const day = { store_id: 's', entry_date: '2031-01-04', row_identifier: 'CP', metric_type: 'hours' };
const refusal = (overrides: Partial<Refusal>): Refusal => ({ table: 'daily_inputs', code: '23514', message: '', keyValues: day, changes: {}, ...overrides });
const check = (name: string) => `new row for relation "x" violates check constraint "${name}"`;

describe('why the server refused an edit, in words', () => {
  it.each<[string, Partial<Refusal>, string]>([
    [
      'a field limit, by its constraint',
      { message: check('daily_inputs_value_in_range'), changes: { value: -5 } },
      'CP Hours 2031-01-04: -5 is not allowed; enter a number from 0 to 1,000.',
    ],
    [
      'NaN sent by an older app',
      { message: check('daily_inputs_value_in_range'), changes: { value: 'NaN' } },
      'CP Hours 2031-01-04: "NaN" is not a number; enter a number from 0 to 1,000.',
    ],
    [
      'a rule newer than this app',
      { message: check('daily_inputs_value_in_range'), changes: { value: 30 } },
      'CP Hours 2031-01-04: the server refused 30 under a rule newer than this app (which allows a number from 0 to 1,000); reload the app to update it, then correct the value.',
    ],
    [
      'a value kept on the server that this edit did not touch',
      {
        table: 'yearly_financial_inputs',
        message: check('yearly_financial_inputs_sales_in_range'),
        keyValues: { store_id: 's', year: 2025, month: 1 },
        changes: { gp_net: 1000 },
      },
      'Sales January 2025: the value kept on the server is not a number from 0 to 10,000,000; correct it on this screen, then try again.',
    ],
    [
      "more work days than the week's part in the month has (an app from before months owned their weeks)",
      {
        table: 'weekly_store_performance',
        message: check('weekly_store_performance_week_holds_work_days'),
        keyValues: { store_id: 's', week_start_date: '2026-09-27' },
        changes: { work_days: 6 },
      },
      'Work Days week of 2026-09-27: 6 is not allowed; enter a whole number from 0 to 4.',
    ],
    [
      'text too long',
      { table: 'front_end_team_advisors', message: check('front_end_team_advisors_employee_id_length'), keyValues: { id: 'a' }, changes: { employee_id: 'E'.repeat(70) } },
      'Employee ID: "EEEEEEEEEEEEEEEEEEEEEEEE…" is not allowed; enter at most 64 characters.',
    ],
    [
      'numeric overflow (22003), found by the sent value',
      {
        table: 'monthly_targets',
        code: '22003',
        message: 'numeric field overflow',
        keyValues: { store_id: 's', year: 2031, month: 4, metric_key: 'grossPerEmployee' },
        changes: { target_value: 1e15 },
      },
      'Gross Per Employee target April 2031: enter a number from 0 to 10,000,000 (sent: 1,000,000,000,000,000).',
    ],
    [
      'invalid text for a number (22P02)',
      { code: '22P02', message: 'invalid input syntax for type numeric: "lots"', changes: { value: 'lots' } },
      'CP Hours 2031-01-04: "lots" is not a number; enter a number from 0 to 1,000.',
    ],
    [
      'a rule across fields',
      { message: check('daily_inputs_calendar_matches_date'), changes: { value: 5 } },
      'The server refused this edit under its rule "daily_inputs_calendar_matches_date".',
    ],
    ['another store (RLS)', { code: '42501', message: 'new row violates row-level security policy' }, "This account may not change this record: it belongs to another store, or the account's access changed."],
    [
      'a closed month',
      { code: '23M01', message: 'month closed by Alex Morgan on 2031-02-03', changes: { value: 5 } },
      'This edit was not saved on the server: the month closed by Alex Morgan on 2031-02-03. An administrator can reopen the month; export the edit to keep it.',
    ],
    ['something unknown', { code: 'XX999', message: 'odd' }, 'The server refused this edit.'],
  ])('%s', (_name, overrides, sentence) => {
    expect(explainRefusal(refusal(overrides))).toBe(sentence);
  });
});
