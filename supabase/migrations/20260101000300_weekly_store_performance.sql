-- Days complete and work days per store and calendar week (Sunday to Saturday).

create table public.weekly_store_performance (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  year integer not null,
  week_start_date date not null check (extract(dow from week_start_date) = 0),
  week_end_date date not null,
  days_complete integer check (days_complete between 0 and 7),
  work_days integer check (work_days between 0 and 7),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint weekly_store_performance_natural_key unique (store_id, week_start_date),
  constraint weekly_store_performance_week_is_seven_days
    check (week_end_date = week_start_date + 6),
  constraint weekly_store_performance_year_matches_week
    check (year in (extract(year from week_start_date)::integer, extract(year from week_end_date)::integer))
);

create index weekly_store_performance_sync on public.weekly_store_performance (sync_xid, id);

select private.make_store_scoped('public.weekly_store_performance');
