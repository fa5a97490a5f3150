import { describeStoreScopedTable } from './store-scoped-suite.ts';

describeStoreScopedTable({
  table: 'store_calendar_days',
  naturalKey: ['store_id', 'calendar_date'],
  row: ({ storeId, n }) => ({ store_id: storeId, year: 2031, calendar_date: `2031-03-${String(n).padStart(2, '0')}`, is_work_day: false, note: 'Stocktake' }),
  change: ['is_work_day', true],
});
