import type { Database } from '../../../supabase/local/db/database.ts';
import { demo } from '../../support/demo.ts';

/** A row for the demo store in each synced table its seed leaves empty, so every table has rows to work on. */
export async function addRowsToEveryTable(db: Database): Promise<void> {
  const [store, user, advisor] = [demo.storeA, demo.managerId, demo.advisorA].map((id) => `'${id}'`);
  await db.exec(`
    insert into public.user_dashboard_preferences (user_id, store_id, selected_kpis, kpi_order) values (${user}, ${store}, '{cpElr,totalElr}', '{totalElr,cpElr}');
    insert into public.front_end_team_advisor_surveys (store_id, advisor_id, entry_date, year, month, mpi_media, nps_score, surveys_count, email_penetration)
      values (${store}, ${advisor}, '2031-03-02', 2031, 3, 50, '72', 4, 80.5);
    insert into public.front_end_team_totals (store_id, entry_date, year, month, parts_labour, total_ros) values (${store}, '2031-03-02', 2031, 3, 1000.5, 12);
    insert into public.front_end_team_op_codes (store_id, entry_date, year, month, alignments) values (${store}, '2031-03-02', 2031, 3, 3);
    insert into public.front_end_team_surveys (store_id, entry_date, year, month, nps_score, mpi_media) values (${store}, '2031-03-02', 2031, 3, 'good', 10);
    insert into public.front_end_team_targets (store_id, year, month, elr) values (${store}, 2031, 3, 120.5);
    insert into public.month_closures (store_id, month_start, year, closed) values (${store}, '2031-03-01', 2031, false);`);
}
