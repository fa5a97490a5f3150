-- The front-end team's score-card targets for a month: sales and labour per RO and per
-- day, ROs and customer-pay ROs per day, customer-pay hours per RO, ELR.
-- Every table of the front-end team is store-scoped like the rest of the store's data;
-- an advisor's rows name the advisor with the store (store_id, advisor_id), so a row can
-- only belong to an advisor of its own store.

create table public.front_end_team_targets (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  year integer not null,
  month integer not null,
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
  constraint front_end_team_targets_natural_key unique (store_id, year, month),
  constraint front_end_team_targets_cp_hours_per_ro_in_range check (cp_hours_per_ro is null or (cp_hours_per_ro <> 'NaN' and cp_hours_per_ro between 0 and 50)),
  constraint front_end_team_targets_cp_ros_per_day_in_range check (cp_ros_per_day is null or (cp_ros_per_day <> 'NaN' and cp_ros_per_day between 0 and 10000)),
  constraint front_end_team_targets_elr_in_range check (elr is null or (elr <> 'NaN' and elr between 0 and 1000)),
  constraint front_end_team_targets_labour_per_day_in_range check (labour_per_day is null or (labour_per_day <> 'NaN' and labour_per_day between 0 and 1500000)),
  constraint front_end_team_targets_labour_per_ro_in_range check (labour_per_ro is null or (labour_per_ro <> 'NaN' and labour_per_ro between 0 and 100000)),
  constraint front_end_team_targets_month_in_range check (month between 1 and 12),
  constraint front_end_team_targets_ros_per_day_in_range check (ros_per_day is null or (ros_per_day <> 'NaN' and ros_per_day between 0 and 10000)),
  constraint front_end_team_targets_total_sales_per_ro_in_range check (total_sales_per_ro is null or (total_sales_per_ro <> 'NaN' and total_sales_per_ro between 0 and 100000)),
  constraint front_end_team_targets_year_in_range check (year between 2000 and 2100)
);

comment on column public.front_end_team_targets.total_sales_per_ro is 'Target total sales per repair order, in dollars.';
comment on column public.front_end_team_targets.ros_per_day is 'Target repair orders per day.';
comment on column public.front_end_team_targets.labour_per_ro is 'Target labour sales per repair order, in dollars.';
comment on column public.front_end_team_targets.labour_per_day is 'Target labour sales per day, in dollars.';
comment on column public.front_end_team_targets.cp_ros_per_day is 'Target customer-pay repair orders per day.';
comment on column public.front_end_team_targets.cp_hours_per_ro is 'Target customer-pay hours per repair order.';
comment on column public.front_end_team_targets.elr is 'Target effective labour rate (labour sales per hour sold), in dollars.';
comment on column public.front_end_team_targets.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index front_end_team_targets_sync on public.front_end_team_targets (sync_xid, id);

alter table public.front_end_team_targets enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.front_end_team_targets
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.front_end_team_targets
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.front_end_team_targets
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.front_end_team_targets from anon;
revoke delete, truncate, references, trigger on public.front_end_team_targets from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.front_end_team_targets
  for each row
  execute function private.stamp_sync_columns();
-- A closed month's figures refuse every change (23M01, "month closed by NAME on DATE").
create trigger refuse_closed_month before insert or delete or update on public.front_end_team_targets
  for each row
  execute function private.refuse_closed_month();
-- Every change made through the API goes into the change history, once per statement.
create trigger record_change_insert after insert on public.front_end_team_targets
  referencing new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_update after update on public.front_end_team_targets
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_delete after delete on public.front_end_team_targets
  referencing old table as old_rows
  for each statement
  execute function private.record_changes();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.front_end_team_targets
  for each row
  when (old.id is distinct from new.id
        or old.month is distinct from new.month
        or old.store_id is distinct from new.store_id
        or old.year is distinct from new.year)
  execute function private.refuse_identity_change();

alter publication supabase_realtime add table public.front_end_team_targets;

insert into private.synced_tables (name, key_columns) values ('front_end_team_targets', array['store_id', 'year', 'month']);
