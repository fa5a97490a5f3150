import { describeStoreScopedTable } from './store-scoped-suite.ts';

describeStoreScopedTable({
  table: 'monthly_operational_inputs',
  naturalKey: ['store_id', 'year', 'month'],
  row: ({ storeId, n }) => ({ store_id: storeId, year: 2031, month: n, ros_over_30_days: 6, shop_supplies: 9100 }),
  change: ['due_bills_over_30_days', 2],
});
