import { describe, expect, it } from 'vitest';
import { dailyCellRef, monthlyCellRef, yearlyCellRef } from '../../../src/features/history/cell-refs.ts';

/** "History of ..." finds the stored field of an input from the name a person sees. */
describe('the stored field behind an input', () => {
  it('reads a day cell', () => {
    expect(dailyCellRef('W Sales 2031-07-04', 's1')).toEqual({
      label: 'W Sales 2031-07-04',
      table: 'daily_inputs',
      key: { store_id: 's1', entry_date: '2031-07-04', row_identifier: 'W', metric_type: 'sales' },
      field: 'value',
    });
    expect(dailyCellRef('Days Complete Week 2', 's1')).toBeNull();
  });

  it('reads a monthly table entry of the month shown', () => {
    expect(monthlyCellRef('Gross CUSTOMER PAY', 's1', '2031-07')).toMatchObject({
      table: 'monthly_labor_gross_inputs',
      key: { store_id: 's1', month_year: '2031-07-01', labor_type: 'customerPay' },
      field: 'gross_value',
    });
    expect(monthlyCellRef("RO's UNAPPLIED TIME", 's1', '2031-07')).toMatchObject({ key: { labor_type: 'unappliedTime' }, field: 'return_on_sales' });
    expect(monthlyCellRef('Sales SUBLET', 's1', '2031-07')).toMatchObject({ key: { labor_type: 'sublet' }, field: 'direct_sales_value' });
    expect(monthlyCellRef('Gross NOWHERE', 's1', '2031-07')).toBeNull();
  });

  it('reads a yearly entry', () => {
    expect(yearlyCellRef('Semi Fixed March 2030', 's1')).toMatchObject({
      table: 'yearly_financial_inputs',
      key: { store_id: 's1', year: 2030, month: 3 },
      field: 'semi_fixed_exp',
    });
    expect(yearlyCellRef('Hours December 2031', 's1')).toMatchObject({ key: { month: 12 }, field: 'ros' });
    expect(yearlyCellRef('Sales Smarch 2031', 's1')).toBeNull();
  });
});
