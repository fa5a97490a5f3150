import { describeStoreScopedTable } from './store-scoped-suite.ts';

describeStoreScopedTable({
  table: 'monthly_labor_gross_inputs',
  naturalKey: ['store_id', 'month_year', 'labor_type'],
  row: ({ storeId, n }) => ({
    store_id: storeId,
    month_year: `2031-${String(n).padStart(2, '0')}-01`,
    labor_type: 'customerPay',
    gross_value: 1000,
  }),
  change: ['gross_value', 2000],
});
