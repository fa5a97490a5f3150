import { describeStoreScopedTable } from './store-scoped-suite.ts';
import { day2031 } from './row-dates.ts';

describeStoreScopedTable({
  table: 'front_end_team_daily_performance',
  naturalKey: ['store_id', 'advisor_id', 'entry_date'],
  row: ({ storeId, advisorId, n }) => {
    const { entry_date, year, month } = day2031(n);
    return { store_id: storeId, advisor_id: advisorId, entry_date, year, month, days_worked: 1, pay_amount: 210 };
  },
  change: ['pay_amount', 250],
});
