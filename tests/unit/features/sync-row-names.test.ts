import { describe, expect, it } from 'vitest';
import { shownValue, syncedFieldName } from '../../../src/features/sync-status/row-names.ts';

const store = '11111111-1111-4111-8111-111111111111';

describe("the sync details' names for a changed value", () => {
  it('names a day cell as its grid does, with the day, and no store id', () => {
    const name = syncedFieldName('daily_inputs', JSON.stringify([store, '2026-11-30', 'CP', 'hours']), 'value');
    expect(name).toBe('CP Hours, Mon 30 Nov 2026');
    expect(syncedFieldName('daily_inputs', JSON.stringify([store, '2026-12-05', 'W', 'sales']), 'value')).toBe('W Sales, Sat 5 Dec 2026');
  });

  it('names week, monthly and yearly fields by their labels', () => {
    expect(syncedFieldName('weekly_store_performance', JSON.stringify([store, '2026-11-29']), 'days_complete')).toBe('Days Complete, week from Sun 29 Nov 2026');
    expect(syncedFieldName('monthly_labor_gross_inputs', JSON.stringify([store, '2026-11-01', 'warranty']), 'gross_value')).toBe('Gross WARRANTY, November 2026');
    expect(syncedFieldName('yearly_financial_inputs', JSON.stringify([store, 2026, 3]), 'personnel_exp')).toBe('Personnel Exp, March 2026');
  });

  it('names any other table in words, leaving its ids out, and survives a key it cannot read', () => {
    expect(syncedFieldName('front_end_team_totals', JSON.stringify([store, '2026-11-02']), 'labor_sales')).toBe('front end team totals (Mon 2 Nov 2026): labor sales');
    expect(syncedFieldName('daily_inputs', 'not json', 'value')).toBe('daily inputs: value');
  });

  it('shows values as they are, and nothing as "empty"', () => {
    expect([shownValue(10), shownValue(12.5), shownValue(null), shownValue('Sam'), shownValue(undefined)]).toEqual(['10', '12.5', 'empty', 'Sam', 'empty']);
  });
});
