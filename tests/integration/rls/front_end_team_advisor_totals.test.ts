import { describeStoreScopedTable } from './store-scoped-suite.ts';
import { day2031 } from './row-dates.ts';

describeStoreScopedTable({
  table: 'front_end_team_advisor_totals',
  naturalKey: ['store_id', 'advisor_id', 'entry_date'],
  row: ({ storeId, advisorId, n }) => {
    const { entry_date, year, month } = day2031(n);
    return { store_id: storeId, advisor_id: advisorId, entry_date, year, month, total_ros: 3 };
  },
  change: ['total_ros', 5],
});
