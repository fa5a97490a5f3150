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
  )
);

create index user_dashboard_preferences_sync on public.user_dashboard_preferences (sync_xid, id);

create trigger stamp_sync_columns before insert or update on public.user_dashboard_preferences
  for each row execute function private.stamp_sync_columns();

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
