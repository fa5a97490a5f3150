import { describeStoreScopedTable } from './store-scoped-suite.ts';

// One settings row per store (the seed has both): every write is an upsert on store_id.
describeStoreScopedTable({
  table: 'store_settings',
  naturalKey: ['store_id'],
  row: ({ storeId, n }) => ({ store_id: storeId, labour_rate: 180 + n, stalls: 10 + n }),
  change: ['stalls', 30],
});
