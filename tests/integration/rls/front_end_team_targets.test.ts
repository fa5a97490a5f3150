import { describeStoreScopedTable } from './store-scoped-suite.ts';

describeStoreScopedTable({
  table: 'front_end_team_targets',
  naturalKey: ['store_id', 'year', 'month'],
  row: ({ storeId, n }) => ({ store_id: storeId, year: 2031, month: n, total_sales_per_ro: 662, ros_per_day: 50 }),
  change: ['ros_per_day', 55],
});
