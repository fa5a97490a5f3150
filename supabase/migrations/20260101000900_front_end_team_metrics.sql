-- Front-end team metrics: totals, op codes and surveys, kept per advisor and day and
-- per store (team level) and day; monthly score-card targets; and the monthly survey
-- figures per advisor. Every table is store-scoped like the rest of the store's data.

create table public.front_end_team_advisor_totals (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  advisor_id uuid not null,
  entry_date date not null,
  year integer not null,
  month integer not null check (month between 1 and 12),
  parts_labour numeric(14, 2),
  labour_sales numeric(14, 2),
  total_ros numeric(10, 2),
  total_hours numeric(10, 2),
  cp_labour numeric(14, 2),
  cp_ros numeric(10, 2),
  cp_hours numeric(10, 2),
  internal_ros numeric(10, 2),
  warranty_ros numeric(10, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint front_end_team_advisor_totals_natural_key unique (store_id, advisor_id, entry_date),
  constraint front_end_team_advisor_totals_advisor foreign key (advisor_id, store_id)
    references public.front_end_team_advisors (id, store_id) on delete cascade,
  constraint front_end_team_advisor_totals_calendar_matches_date check (
    year = extract(year from entry_date)::integer and month = extract(month from entry_date)::integer
  )
);

create index front_end_team_advisor_totals_sync on public.front_end_team_advisor_totals (sync_xid, id);
select private.make_store_scoped('public.front_end_team_advisor_totals');

create table public.front_end_team_totals (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  entry_date date not null,
  year integer not null,
  month integer not null check (month between 1 and 12),
  parts_labour numeric(14, 2),
  labour_sales numeric(14, 2),
  total_ros numeric(10, 2),
  total_hours numeric(10, 2),
  cp_labour numeric(14, 2),
  cp_ros numeric(10, 2),
  cp_hours numeric(10, 2),
  internal_ros numeric(10, 2),
  warranty_ros numeric(10, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint front_end_team_totals_natural_key unique (store_id, entry_date),
  constraint front_end_team_totals_calendar_matches_date check (
    year = extract(year from entry_date)::integer and month = extract(month from entry_date)::integer
  )
);

create index front_end_team_totals_sync on public.front_end_team_totals (sync_xid, id);
select private.make_store_scoped('public.front_end_team_totals');

create table public.front_end_team_advisor_op_codes (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  advisor_id uuid not null,
  entry_date date not null,
  year integer not null,
  month integer not null check (month between 1 and 12),
  alignments numeric(10, 2),
  tire_sales numeric(10, 2),
  batteries numeric(10, 2),
  auto_trans_service numeric(10, 2),
  coolant_service numeric(10, 2),
  diff_service numeric(10, 2),
  front_brakes numeric(10, 2),
  rear_brakes numeric(10, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint front_end_team_advisor_op_codes_natural_key unique (store_id, advisor_id, entry_date),
  constraint front_end_team_advisor_op_codes_advisor foreign key (advisor_id, store_id)
    references public.front_end_team_advisors (id, store_id) on delete cascade,
  constraint front_end_team_advisor_op_codes_calendar_matches_date check (
    year = extract(year from entry_date)::integer and month = extract(month from entry_date)::integer
  )
);

create index front_end_team_advisor_op_codes_sync on public.front_end_team_advisor_op_codes (sync_xid, id);
select private.make_store_scoped('public.front_end_team_advisor_op_codes');

create table public.front_end_team_op_codes (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  entry_date date not null,
  year integer not null,
  month integer not null check (month between 1 and 12),
  alignments numeric(10, 2),
  tire_sales numeric(10, 2),
  batteries numeric(10, 2),
  auto_trans_service numeric(10, 2),
  coolant_service numeric(10, 2),
  diff_service numeric(10, 2),
  front_brakes numeric(10, 2),
  rear_brakes numeric(10, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint front_end_team_op_codes_natural_key unique (store_id, entry_date),
  constraint front_end_team_op_codes_calendar_matches_date check (
    year = extract(year from entry_date)::integer and month = extract(month from entry_date)::integer
  )
);

create index front_end_team_op_codes_sync on public.front_end_team_op_codes (sync_xid, id);
select private.make_store_scoped('public.front_end_team_op_codes');

create table public.front_end_team_advisor_surveys (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  advisor_id uuid not null,
  entry_date date not null,
  year integer not null,
  month integer not null check (month between 1 and 12),
  mpi_media numeric(10, 2),
  nps_score text check (length(nps_score) <= 100),
  surveys_count numeric(10, 2),
  email_penetration numeric(10, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint front_end_team_advisor_surveys_natural_key unique (store_id, advisor_id, entry_date),
  constraint front_end_team_advisor_surveys_advisor foreign key (advisor_id, store_id)
    references public.front_end_team_advisors (id, store_id) on delete cascade,
  constraint front_end_team_advisor_surveys_calendar_matches_date check (
    year = extract(year from entry_date)::integer and month = extract(month from entry_date)::integer
  )
);

create index front_end_team_advisor_surveys_sync on public.front_end_team_advisor_surveys (sync_xid, id);
select private.make_store_scoped('public.front_end_team_advisor_surveys');

create table public.front_end_team_surveys (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  entry_date date not null,
  year integer not null,
  month integer not null check (month between 1 and 12),
  mpi_media numeric(10, 2),
  nps_score text check (length(nps_score) <= 100),
  surveys_count numeric(10, 2),
  email_penetration numeric(10, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint front_end_team_surveys_natural_key unique (store_id, entry_date),
  constraint front_end_team_surveys_calendar_matches_date check (
    year = extract(year from entry_date)::integer and month = extract(month from entry_date)::integer
  )
);

create index front_end_team_surveys_sync on public.front_end_team_surveys (sync_xid, id);
select private.make_store_scoped('public.front_end_team_surveys');

create table public.front_end_team_targets (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  year integer not null check (year between 2000 and 2100),
  month integer not null check (month between 1 and 12),
  total_sales_per_ro numeric(12, 2),
  ros_per_day numeric(10, 2),
  labour_per_ro numeric(12, 2),
  labour_per_day numeric(14, 2),
  cp_ros_per_day numeric(10, 2),
  cp_hours_per_ro numeric(10, 2),
  elr numeric(10, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint front_end_team_targets_natural_key unique (store_id, year, month)
);

create index front_end_team_targets_sync on public.front_end_team_targets (sync_xid, id);
select private.make_store_scoped('public.front_end_team_targets');


create table public.advisor_survey_data (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  advisor_id uuid not null,
  year integer not null check (year between 2000 and 2100),
  month integer not null check (month between 1 and 12),
  mpi_media numeric(10, 2),
  nps_score text check (length(nps_score) <= 100),
  surveys_count numeric(10, 2),
  email_penetration numeric(10, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint advisor_survey_data_natural_key unique (store_id, advisor_id, year, month),
  constraint advisor_survey_data_advisor foreign key (advisor_id, store_id)
    references public.front_end_team_advisors (id, store_id) on delete cascade
);

create index advisor_survey_data_sync on public.advisor_survey_data (sync_xid, id);
select private.make_store_scoped('public.advisor_survey_data');
