import { describeStoreScopedTable } from './store-scoped-suite.ts';

describeStoreScopedTable({
  table: 'monthly_targets',
  naturalKey: ['store_id', 'year', 'month', 'metric_key'],
  row: ({ storeId, n }) => ({ store_id: storeId, year: 2031, month: n, metric_key: 'hoursPerDay', target_value: 100 }),
  change: ['target_value', 120],
});
