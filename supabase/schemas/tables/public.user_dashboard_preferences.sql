-- Which KPI tiles a user shows and in what order. Private to the user: unlike store
-- data, a colleague in the same store neither reads nor changes it.

create table public.user_dashboard_preferences (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  store_id uuid not null references public.stores (id) on delete cascade,
  selected_kpis text[] not null default array[
    'monthComplete', 'hoursPerDay', 'salesPerDay', 'cpElr', 'warrantyElr', 'internalElr',
    'totalElr', 'cpHoursPerRo', 'rosOver30Days', 'dueBillsOver30Days', 'shopSupplies',
    'workMixChart'
  ],
  kpi_order text[],
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint user_dashboard_preferences_natural_key unique (user_id, store_id),
  constraint user_dashboard_preferences_known_kpis check (
    selected_kpis <@ array[
      'monthComplete', 'hoursPerDay', 'salesPerDay', 'cpElr', 'warrantyElr', 'internalElr',
      'totalElr', 'cpHoursPerRo', 'rosOver30Days', 'dueBillsOver30Days', 'shopSupplies',
      'workMixChart'
    ]
    and (kpi_order is null or kpi_order <@ array[
      'monthComplete', 'hoursPerDay', 'salesPerDay', 'cpElr', 'warrantyElr', 'internalElr',
      'totalElr', 'cpHoursPerRo', 'rosOver30Days', 'dueBillsOver30Days', 'shopSupplies',
      'workMixChart'
    ])
  ),
  constraint user_dashboard_preferences_kpi_order_length check (kpi_order is null or cardinality(kpi_order) <= 32),
  constraint user_dashboard_preferences_selected_kpis_length check (selected_kpis is null or cardinality(selected_kpis) <= 32)
);

comment on column public.user_dashboard_preferences.selected_kpis is 'The KPI tiles the user shows, by tile id (hoursPerDay, ...).';
comment on column public.user_dashboard_preferences.kpi_order is 'The order the user put the tiles in, by tile id; null: the default order.';
comment on column public.user_dashboard_preferences.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index user_dashboard_preferences_sync on public.user_dashboard_preferences (sync_xid, id);
-- Walked by every store deletion (its foreign key to the store).
create index user_dashboard_preferences_store on public.user_dashboard_preferences (store_id);

alter table public.user_dashboard_preferences enable row level security;

create policy "Users read their own preferences" on public.user_dashboard_preferences
  for select to authenticated using (user_id = (select auth.uid()));
create policy "Users save their own preferences for their store" on public.user_dashboard_preferences
  for insert to authenticated
  with check (user_id = (select auth.uid()) and store_id = (select public.get_user_store_id()));
create policy "Users change their own preferences" on public.user_dashboard_preferences
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()) and store_id = (select public.get_user_store_id()));

revoke all on public.user_dashboard_preferences from anon;
revoke delete, truncate, references, trigger on public.user_dashboard_preferences from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.user_dashboard_preferences
  for each row
  execute function private.stamp_sync_columns();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.user_dashboard_preferences
  for each row
  when (old.id is distinct from new.id
        or old.user_id is distinct from new.user_id
        or old.store_id is distinct from new.store_id)
  execute function private.refuse_identity_change();

alter publication supabase_realtime add table public.user_dashboard_preferences;

insert into private.synced_tables (name, key_columns) values ('user_dashboard_preferences', array['user_id', 'store_id']);
