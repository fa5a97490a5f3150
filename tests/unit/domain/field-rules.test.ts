import { describe, expect, it } from 'vitest';
import { characterCount, constraintField, decimalPlaces, fieldName, limitOf, rowProblem } from '../../../src/domain/field-rules.ts';
import { fieldLimits } from '../../../src/domain/limits.ts';

describe('field limits applied to rows', () => {
  it('pick the case a dependent limit names, and the general case for targets added later', () => {
    expect(limitOf('daily_inputs', 'value', { metric_type: 'hours' })).toMatchObject({ kind: 'hours', max: 1000 });
    expect(limitOf('daily_inputs', 'value', { metric_type: 'sales' })).toMatchObject({ kind: 'money', max: 500000 });
    expect(limitOf('daily_inputs', 'value', { metric_type: 'miles' })).toBeUndefined();
    expect(limitOf('monthly_targets', 'target_value', { metric_key: 'daysComplete' })).toMatchObject({ whole: true, max: 31 });
    expect(limitOf('monthly_targets', 'target_value', { metric_key: 'aTargetOfLater' })).toMatchObject({ min: 0, max: 10_000_000 });
    expect(limitOf('monthly_targets', 'target_value', { metric_key: 'constructor' })).toMatchObject({ max: 10_000_000 });
    expect(limitOf('daily_inputs', 'entry_date')).toBeUndefined();
    expect(limitOf('no_such_table', 'value')).toBeUndefined();
  });

  it.each([
    ['daily_inputs', { store_id: 's', entry_date: '2026-11-03', row_identifier: 'CP', metric_type: 'hours', value: -5 }, 'CP Hours 2026-11-03: enter a number from 0 to 1,000.'],
    ['daily_inputs', { entry_date: '2026-11-03', row_identifier: 'W', metric_type: 'sales', value: 1e15 }, 'W Sales 2026-11-03: enter a number from 0 to 500,000.'],
    ['daily_inputs', { entry_date: '2026-11-03', row_identifier: 'I', metric_type: 'hours', value: Number.NaN }, 'I Hours 2026-11-03: enter a number from 0 to 1,000.'],
    ['daily_inputs', { entry_date: '2026-11-03', row_identifier: 'I', metric_type: 'hours', value: Infinity }, 'I Hours 2026-11-03: enter a number from 0 to 1,000.'],
    ['daily_inputs', { entry_date: '2026-11-03', row_identifier: 'I', metric_type: 'hours', value: 7.125 }, 'I Hours 2026-11-03: enter a number from 0 to 1,000 with at most 2 decimals.'],
    ['daily_inputs', { entry_date: '2026-11-03', row_identifier: 'I', metric_type: 'hours', value: '7' }, 'I Hours 2026-11-03: "7" is not a number; enter a number from 0 to 1,000.'],
    ['daily_inputs', { entry_date: '2026-11-03', row_identifier: 'X', metric_type: 'hours', value: 1 }, 'Labour category 2026-11-03: must be one of CP, W, I.'],
    ['weekly_store_performance', { week_start_date: '2026-11-01', year: 2026, days_complete: 8 }, 'Days Complete week of 2026-11-01: enter a whole number from 0 to 7.'],
    // The part of a week inside its month holds only its own days: Sunday 27 to Wednesday 30 September.
    ['weekly_store_performance', { week_start_date: '2026-09-27', year: 2026, work_days: 5 }, 'Work Days week of 2026-09-27: enter a whole number from 0 to 4.'],
    ['weekly_store_performance', { week_start_date: '1999-12-26', year: 1999, work_days: 6 }, 'Year week of 1999-12-26: enter a whole number from 2000 to 2100.'],
    ['yearly_financial_inputs', { year: 2026, month: 3, gp_net: -20_000_000 }, 'GP Net March 2026: enter a number from -10,000,000 to 10,000,000.'],
    ['monthly_labor_gross_inputs', { month_year: '2026-03-01', labor_type: 'customerPay', return_on_sales: 12.5 }, "RO's (customerPay) March 2026: enter a whole number from 0 to 100,000."],
    ['front_end_team_advisors', { advisor_name: '   ' }, 'Advisor name: must not be empty.'],
    ['front_end_team_advisors', { advisor_name: 'x'.repeat(201) }, 'Advisor name: enter at most 200 characters.'],
    ['front_end_team_advisors', { advisor_name: 'Sam', employee_id: 'E'.repeat(65) }, 'Employee ID: enter at most 64 characters.'],
    ['advisor_survey_data', { year: 2026, month: 3, nps_score: '9'.repeat(101) }, 'NPS Score March 2026: enter at most 100 characters.'],
    ['user_dashboard_preferences', { selected_kpis: Array.from({ length: 33 }, () => 'cpElr') }, 'Selected KPIs: can hold at most 32 items.'],
    ['monthly_targets', { year: 2026, month: 3, metric_key: 'Bad Key', target_value: 1 }, 'Target March 2026: "Bad Key" is not a valid target.'],
  ])('refuses a %s row that breaks a limit, naming the field', (table, row, message) => {
    expect(rowProblem(table, row)?.message).toBe(message);
  });

  it.each([
    ['daily_inputs', { entry_date: '2026-11-03', row_identifier: 'CP', metric_type: 'hours', value: 1000 }],
    ['daily_inputs', { entry_date: '2026-11-03', row_identifier: 'CP', metric_type: 'hours', value: null }],
    ['monthly_labor_gross_inputs', { labor_type: 'unappliedTime', gross_value: -2100.5 }],
    ['front_end_team_advisors', { advisor_name: '😀'.repeat(200), created_at: '2026-01-01T00:00:00Z', is_active: true }],
    ['stores', { name: 'Demo Motors', subdomain: 'demo-motors' }],
    ['monthly_targets', { metric_key: 'grossPerEmployee', target_value: 22000 }],
  ])('lets a %s row within its limits through', (table, row) => {
    expect(rowProblem(table, row)).toBeNull();
  });

  it('count characters as Postgres does, and decimals as the number is written', () => {
    expect(characterCount('😀😀')).toBe(2);
    expect('😀😀'.length).toBe(4);
    expect([decimalPlaces(7), decimalPlaces(7.5), decimalPlaces(0.1 + 0.2), decimalPlaces(1.5e-7), decimalPlaces(1e21)]).toEqual([0, 1, 17, 8, 0]);
  });

  it('map every constraint name the migrations use back to its field', () => {
    expect(constraintField('daily_inputs_value_in_range')).toEqual({ table: 'daily_inputs', column: 'value' });
    expect(constraintField('front_end_team_advisors_employee_id_length')).toEqual({ table: 'front_end_team_advisors', column: 'employee_id' });
    expect(constraintField('monthly_labor_gross_inputs_labor_type_check')).toEqual({ table: 'monthly_labor_gross_inputs', column: 'labor_type' });
    expect(constraintField('daily_inputs_calendar_matches_date')).toBeUndefined();
  });

  it('name a field with the words its cell uses, or its label and month', () => {
    expect(fieldName('daily_inputs', 'value', { entry_date: '2026-11-03', row_identifier: 'CP', metric_type: 'hours' })).toBe('CP Hours 2026-11-03');
    expect(fieldName('yearly_financial_inputs', 'sales', { year: 2025, month: 12 })).toBe('Sales December 2025');
    expect(fieldName('store_settings', 'stalls', { store_id: 's' })).toBe('Stalls');
    expect(fieldName('monthly_targets', 'target_value', { year: 2026, month: 4, metric_key: 'grossPerEmployee' })).toBe('Gross Per Employee target April 2026');
  });

  it('keep every bound within what its kind can mean', () => {
    for (const [table, columns] of Object.entries(fieldLimits)) {
      for (const [column, limit] of Object.entries(columns)) {
        const numbers = limit.kind === 'depends' ? [...Object.values(limit.cases), ...(limit.otherwise ? [limit.otherwise] : [])] : [limit];
        for (const n of numbers) {
          if (!('min' in n)) continue;
          expect(n.min, `${table}.${column}`).toBeLessThan(n.max);
          // Only money that can be a loss goes below zero.
          if (n.min < 0) expect(n.kind, `${table}.${column}`).toBe('money');
          if (n.kind === 'percent') expect(n.max).toBe(100);
          if (n.whole) expect(n.decimals).toBe(0);
        }
      }
    }
  });
});
