import { describeStoreScopedTable } from './store-scoped-suite.ts';

describeStoreScopedTable({
  table: 'front_end_team_advisors',
  naturalKey: ['id'],
  row: ({ storeId, n }) => ({
    id: `eeeeeeee-0000-4000-8000-${storeId.slice(0, 4)}0000000${n}`,
    store_id: storeId,
    advisor_name: `Advisor ${n}`,
  }),
  change: ['is_active', false],
});
