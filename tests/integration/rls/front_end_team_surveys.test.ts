import { describeStoreScopedTable } from './store-scoped-suite.ts';
import { day2031 } from './row-dates.ts';

describeStoreScopedTable({
  table: 'front_end_team_surveys',
  naturalKey: ['store_id', 'entry_date'],
  row: ({ storeId, n }) => {
    const { entry_date, year, month } = day2031(n);
    return { store_id: storeId, entry_date, year, month, surveys_count: 3 };
  },
  change: ['surveys_count', 5],
});
