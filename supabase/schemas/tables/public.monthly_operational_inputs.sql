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
  constraint monthly_operational_inputs_ros_over_30_days_in_range check (ros_over_30_days is null or ros_over_30_days between 0 and 100000),
  constraint monthly_operational_inputs_due_bills_over_30_days_in_range check (due_bills_over_30_days is null or due_bills_over_30_days between 0 and 100000),
  constraint monthly_operational_inputs_shop_supplies_in_range check (shop_supplies is null or (shop_supplies <> 'NaN' and shop_supplies between 0 and 10000000)),
  constraint monthly_operational_inputs_as_of_date_in_month check (as_of_date is null or (extract(year from as_of_date) = year and extract(month from as_of_date) = month))
);

comment on column public.monthly_operational_inputs.ros_over_30_days is 'Repair orders open more than 30 days, as counted on the dealer system on as_of_date.';
comment on column public.monthly_operational_inputs.due_bills_over_30_days is 'Due bills (we-owes) open more than 30 days, as counted on as_of_date.';
comment on column public.monthly_operational_inputs.shop_supplies is 'Shop supplies sold in the month, in dollars.';
comment on column public.monthly_operational_inputs.as_of_date is 'The day the counts were taken, inside the month.';
comment on column public.monthly_operational_inputs.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index monthly_operational_inputs_sync on public.monthly_operational_inputs (sync_xid, id);

alter table public.monthly_operational_inputs enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.monthly_operational_inputs
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.monthly_operational_inputs
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.monthly_operational_inputs
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.monthly_operational_inputs from anon;
revoke delete, truncate, references, trigger on public.monthly_operational_inputs from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.monthly_operational_inputs
  for each row
  execute function private.stamp_sync_columns();
-- A closed month's figures refuse every change (23M01, "month closed by NAME on DATE").
create trigger refuse_closed_month before insert or delete or update on public.monthly_operational_inputs
  for each row
  execute function private.refuse_closed_month();
-- Every change made through the API goes into the change history, once per statement.
create trigger record_change_insert after insert on public.monthly_operational_inputs
  referencing new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_update after update on public.monthly_operational_inputs
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_delete after delete on public.monthly_operational_inputs
  referencing old table as old_rows
  for each statement
  execute function private.record_changes();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.monthly_operational_inputs
  for each row
  when (old.id is distinct from new.id
        or old.month is distinct from new.month
        or old.store_id is distinct from new.store_id
        or old.year is distinct from new.year)
  execute function private.refuse_identity_change();

alter publication supabase_realtime add table public.monthly_operational_inputs;

insert into private.synced_tables (name, key_columns) values ('monthly_operational_inputs', array['store_id', 'year', 'month']);
