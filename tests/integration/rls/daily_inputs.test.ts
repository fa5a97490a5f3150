import { describeStoreScopedTable } from './store-scoped-suite.ts';
import { day2031 } from './row-dates.ts';

describeStoreScopedTable({
  table: 'daily_inputs',
  naturalKey: ['store_id', 'entry_date', 'row_identifier', 'metric_type'],
  row: ({ storeId, n }) => ({ store_id: storeId, ...day2031(n), row_identifier: 'CP', metric_type: 'hours', value: 42.5 }),
  change: ['value', 7],
});
