/**
 * The store data tables under the shared row-level security contract of
 * store-scoped-suite.ts: for each, a valid row, its natural key and a change an update may set.
 * Every table's rows live in their own table and 2031 dates, so all of them share one
 * database per backend without colliding.
 */
import type { StoreScopedTableSpec } from './store-scoped-suite.ts';
import { day2031, week2031 } from './row-dates.ts';

export const storeScopedTables: StoreScopedTableSpec[] = [
  {
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
  },
  {
    table: 'daily_inputs',
    naturalKey: ['store_id', 'entry_date', 'row_identifier', 'metric_type'],
    row: ({ storeId, n }) => ({ store_id: storeId, ...day2031(n), row_identifier: 'CP', metric_type: 'hours', value: 42.5 }),
    change: ['value', 7],
  },
  {
    table: 'front_end_team_advisor_op_codes',
    naturalKey: ['store_id', 'advisor_id', 'entry_date'],
    row: ({ storeId, advisorId, n }) => {
      const { entry_date, year, month } = day2031(n);
      return { store_id: storeId, advisor_id: advisorId, entry_date, year, month, alignments: 3 };
    },
    change: ['alignments', 5],
  },
  {
    table: 'front_end_team_advisor_surveys',
    naturalKey: ['store_id', 'advisor_id', 'entry_date'],
    row: ({ storeId, advisorId, n }) => {
      const { entry_date, year, month } = day2031(n);
      return { store_id: storeId, advisor_id: advisorId, entry_date, year, month, surveys_count: 3 };
    },
    change: ['surveys_count', 5],
  },
  {
    table: 'front_end_team_advisor_totals',
    naturalKey: ['store_id', 'advisor_id', 'entry_date'],
    row: ({ storeId, advisorId, n }) => {
      const { entry_date, year, month } = day2031(n);
      return { store_id: storeId, advisor_id: advisorId, entry_date, year, month, total_ros: 3 };
    },
    change: ['total_ros', 5],
  },
  {
    table: 'front_end_team_advisors',
    naturalKey: ['id'],
    row: ({ storeId, n }) => ({
      id: `eeeeeeee-0000-4000-8000-${storeId.slice(0, 4)}0000000${n}`,
      store_id: storeId,
      advisor_name: `Advisor ${n}`,
    }),
    change: ['is_active', false],
  },
  {
    table: 'front_end_team_daily_performance',
    naturalKey: ['store_id', 'advisor_id', 'entry_date'],
    row: ({ storeId, advisorId, n }) => {
      const { entry_date, year, month } = day2031(n);
      return { store_id: storeId, advisor_id: advisorId, entry_date, year, month, days_worked: 1, pay_amount: 210 };
    },
    change: ['pay_amount', 250],
  },
  {
    table: 'front_end_team_op_codes',
    naturalKey: ['store_id', 'entry_date'],
    row: ({ storeId, n }) => {
      const { entry_date, year, month } = day2031(n);
      return { store_id: storeId, entry_date, year, month, alignments: 3 };
    },
    change: ['alignments', 5],
  },
  {
    table: 'front_end_team_surveys',
    naturalKey: ['store_id', 'entry_date'],
    row: ({ storeId, n }) => {
      const { entry_date, year, month } = day2031(n);
      return { store_id: storeId, entry_date, year, month, surveys_count: 3 };
    },
    change: ['surveys_count', 5],
  },
  {
    table: 'front_end_team_targets',
    naturalKey: ['store_id', 'year', 'month'],
    row: ({ storeId, n }) => ({ store_id: storeId, year: 2031, month: n, total_sales_per_ro: 662, ros_per_day: 50 }),
    change: ['ros_per_day', 55],
  },
  {
    table: 'front_end_team_totals',
    naturalKey: ['store_id', 'entry_date'],
    row: ({ storeId, n }) => {
      const { entry_date, year, month } = day2031(n);
      return { store_id: storeId, entry_date, year, month, total_ros: 3 };
    },
    change: ['total_ros', 5],
  },
  {
    table: 'monthly_labor_gross_inputs',
    naturalKey: ['store_id', 'month_year', 'labor_type'],
    row: ({ storeId, n }) => ({
      store_id: storeId,
      month_year: `2031-${String(n).padStart(2, '0')}-01`,
      labor_type: 'customerPay',
      gross_value: 1000,
    }),
    change: ['gross_value', 2000],
  },
  {
    table: 'monthly_operational_inputs',
    naturalKey: ['store_id', 'year', 'month'],
    row: ({ storeId, n }) => ({ store_id: storeId, year: 2031, month: n, ros_over_30_days: 6, shop_supplies: 9100 }),
    change: ['due_bills_over_30_days', 2],
  },
  {
    table: 'monthly_targets',
    naturalKey: ['store_id', 'year', 'month', 'metric_key'],
    row: ({ storeId, n }) => ({ store_id: storeId, year: 2031, month: n, metric_key: 'hoursPerDay', target_value: 100 }),
    change: ['target_value', 120],
  },
  {
    table: 'store_calendar_days',
    naturalKey: ['store_id', 'calendar_date'],
    row: ({ storeId, n }) => ({ store_id: storeId, year: 2031, calendar_date: `2031-03-${String(n).padStart(2, '0')}`, is_work_day: false, note: 'Stocktake' }),
    change: ['is_work_day', true],
  },
  {
    table: 'store_settings',
    naturalKey: ['store_id'],
    row: ({ storeId, n }) => ({ store_id: storeId, labour_rate: 180 + n, stalls: 10 + n }),
    change: ['stalls', 30],
  },
  {
    table: 'weekly_store_performance',
    naturalKey: ['store_id', 'week_start_date'],
    row: ({ storeId, n }) => ({ store_id: storeId, ...week2031(n), days_complete: 3, work_days: 6 }),
    change: ['days_complete', 4],
  },
  {
    table: 'yearly_financial_inputs',
    naturalKey: ['store_id', 'year', 'month'],
    row: ({ storeId, n }) => ({ store_id: storeId, year: 2031, month: n, sales: 350000, gp_net: 250000 }),
    change: ['sales', 360000],
  },
];
