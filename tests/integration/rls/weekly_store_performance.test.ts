import { describeStoreScopedTable } from './store-scoped-suite.ts';
import { week2031 } from './row-dates.ts';

describeStoreScopedTable({
  table: 'weekly_store_performance',
  naturalKey: ['store_id', 'week_start_date'],
  row: ({ storeId, n }) => ({ store_id: storeId, ...week2031(n), days_complete: 3, work_days: 6 }),
  change: ['days_complete', 4],
});
