import { describeStoreScopedTable } from './store-scoped-suite.ts';

describeStoreScopedTable({
  table: 'yearly_financial_inputs',
  naturalKey: ['store_id', 'year', 'month'],
  row: ({ storeId, n }) => ({ store_id: storeId, year: 2031, month: n, sales: 350000, gp_net: 250000 }),
  change: ['sales', 360000],
});
