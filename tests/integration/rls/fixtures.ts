/** Extra rows the RLS suites need beyond the demo seed, inserted as the superuser. */
import type { Database } from '../../../supabase/local/db/database.ts';
import { demo } from '../../support/demo.ts';

export const rlsFixtures = {
  selfPromotedUserId: 'bbbbbbbb-0000-4000-8000-000000000009',
  selfPromotedEmail: 'climber@example.com',
  advisorA: demo.advisorA,
  advisorB: 'dddddddd-0000-4000-8000-000000000001',
} as const;

export async function provisionRlsFixtures(db: Database): Promise<void> {
  await db.query(
    `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data)
     values ($1, $3, extensions.crypt($4, extensions.gen_salt('bf', 4)), now(), '{"provider":"email"}',
             jsonb_build_object('store_id', $2::text, 'is_admin', true))`,
    [rlsFixtures.selfPromotedUserId, demo.storeA, rlsFixtures.selfPromotedEmail, demo.password],
  );
  await db.query(
    `insert into public.front_end_team_advisors (id, store_id, advisor_name) values ($1, $2, 'Casey North')`,
    [rlsFixtures.advisorB, demo.storeB],
  );
}

/**
 * The statement the sync push sends for one row: insert, or on a natural-key conflict
 * update the sent columns. Identifiers come from test code only.
 */
export function upsertSql(table: string, columns: string[], naturalKey: string[]): string {
  const updates = columns.filter((c) => !naturalKey.includes(c)).map((c) => `${c} = excluded.${c}`);
  return `insert into public.${table} (${columns.join(', ')})
          values (${columns.map((_, i) => `$${i + 1}`).join(', ')})
          on conflict (${naturalKey.join(', ')}) do update set ${updates.join(', ')}
          returning id`;
}

/** Upserts a row as the superuser and returns its id. */
export async function insertRow(
  db: Database,
  table: string,
  row: Record<string, unknown>,
  naturalKey: string[],
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(upsertSql(table, Object.keys(row), naturalKey), Object.values(row));
  const id = rows[0]?.id;
  if (!id) throw new Error(`insert into ${table} returned no id`);
  return id;
}
