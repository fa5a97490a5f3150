-- One value per store, day, labour category (CP customer pay, W warranty, I internal)
-- and metric (hours or sales). The derived calendar columns must agree with
-- entry_date, so a client with a wrong clock or a bug cannot file a day in another week.

create table public.daily_inputs (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  entry_date date not null,
  year integer not null,
  month integer not null check (month between 1 and 12),
  day_of_week_iso integer not null check (day_of_week_iso between 1 and 7),
  row_identifier text not null check (row_identifier in ('CP', 'W', 'I')),
  metric_type text not null check (metric_type in ('hours', 'sales')),
  value numeric(12, 2),
  week_of_month_display integer check (week_of_month_display between 1 and 6),
  year_week_actual text check (year_week_actual ~ '^[0-9]{4}-[0-9]{2}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint daily_inputs_natural_key unique (store_id, entry_date, row_identifier, metric_type),
  constraint daily_inputs_calendar_matches_date check (
    year = extract(year from entry_date)::integer
    and month = extract(month from entry_date)::integer
    and day_of_week_iso = extract(isodow from entry_date)::integer
  )
);

create index daily_inputs_store_year_month on public.daily_inputs (store_id, year, month);
create index daily_inputs_sync on public.daily_inputs (sync_xid, id);

select private.make_store_scoped('public.daily_inputs');
