-- Three month figures a store counts off its dealer-management system rather than types
-- day by day: repair orders open more than 30 days, due bills (we-owes) open more than
-- 30 days, and shop supplies sold. One row per store and month, each figure with the
-- date it was counted on (as_of_date, inside that month), so a count taken mid-month is
-- read as of its day. The KPI tiles of the same names read them.

create table public.monthly_operational_inputs (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  year integer not null,
  month integer not null,
  ros_over_30_days integer,
  due_bills_over_30_days integer,
  shop_supplies numeric(12, 2),
  as_of_date date,
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint monthly_operational_inputs_natural_key unique (store_id, year, month),
  constraint monthly_operational_inputs_year_in_range check (year between 2000 and 2100),
  constraint monthly_operational_inputs_month_in_range check (month between 1 and 12),
  constraint monthly_operational_inputs_ros_over_30_days_in_range
    check (ros_over_30_days is null or ros_over_30_days between 0 and 100000),
  constraint monthly_operational_inputs_due_bills_over_30_days_in_range
    check (due_bills_over_30_days is null or due_bills_over_30_days between 0 and 100000),
  constraint monthly_operational_inputs_shop_supplies_in_range
    check (shop_supplies is null or (shop_supplies <> 'NaN' and shop_supplies between 0 and 10000000)),
  constraint monthly_operational_inputs_as_of_date_in_month
    check (as_of_date is null or (extract(year from as_of_date) = year and extract(month from as_of_date) = month))
);

create index monthly_operational_inputs_sync on public.monthly_operational_inputs (sync_xid, id);

select private.make_store_scoped('public.monthly_operational_inputs');

insert into private.synced_tables (name, key_columns) values
  ('monthly_operational_inputs', array['store_id', 'year', 'month']);

alter publication supabase_realtime add table public.monthly_operational_inputs;
