import { describeStoreScopedTable } from './store-scoped-suite.ts';

describeStoreScopedTable({
  table: 'advisor_survey_data',
  naturalKey: ['store_id', 'advisor_id', 'year', 'month'],
  row: ({ storeId, advisorId, n }) => ({
    store_id: storeId,
    advisor_id: advisorId,
    year: 2031,
    month: n,
    mpi_media: 40,
    nps_score: '78',
    surveys_count: 9,
  }),
  change: ['nps_score', '81'],
});
