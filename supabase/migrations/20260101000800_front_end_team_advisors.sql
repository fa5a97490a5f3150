-- Service advisors and their days worked and pay. Advisors are retired with
-- is_active = false (their history stays); the composite key lets child rows prove
-- that the advisor belongs to the same store as the row.

create table public.front_end_team_advisors (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  advisor_name text not null check (btrim(advisor_name) <> '' and length(advisor_name) <= 200),
  employee_id text,
  hire_date date,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint front_end_team_advisors_id_store unique (id, store_id)
);

create index front_end_team_advisors_sync on public.front_end_team_advisors (sync_xid, id);

select private.make_store_scoped('public.front_end_team_advisors');


create table public.front_end_team_daily_performance (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  advisor_id uuid not null,
  entry_date date not null,
  year integer not null,
  month integer not null check (month between 1 and 12),
  days_worked numeric(6, 2) check (days_worked >= 0),
  pay_amount numeric(12, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint front_end_team_daily_performance_natural_key unique (store_id, advisor_id, entry_date),
  constraint front_end_team_daily_performance_advisor foreign key (advisor_id, store_id)
    references public.front_end_team_advisors (id, store_id) on delete cascade,
  constraint front_end_team_daily_performance_calendar_matches_date check (
    year = extract(year from entry_date)::integer and month = extract(month from entry_date)::integer
  )
);

create index front_end_team_daily_performance_sync on public.front_end_team_daily_performance (sync_xid, id);

select private.make_store_scoped('public.front_end_team_daily_performance');
