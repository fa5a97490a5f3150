-- An advisor's totals: parts and labour, labour sales, repair orders and hours, customer
-- pay and internal/warranty ROs, kept per advisor and day: a month's figure is the sum of
-- its days, and the tracker enters it on the month's first day.
-- Every table of the front-end team is store-scoped like the rest of the store's data;
-- an advisor's rows name the advisor with the store (store_id, advisor_id), so a row can
-- only belong to an advisor of its own store.

create table public.front_end_team_advisor_totals (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  advisor_id uuid not null,
  entry_date date not null,
  year integer not null,
  month integer not null,
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
  constraint front_end_team_advisor_totals_advisor foreign key (store_id, advisor_id) references public.front_end_team_advisors (store_id, id) on delete cascade,
  constraint front_end_team_advisor_totals_calendar_matches_date check (
    year = extract(year from entry_date)::integer and month = extract(month from entry_date)::integer
  ),
  constraint front_end_team_advisor_totals_cp_hours_in_range check (cp_hours is null or (cp_hours <> 'NaN' and cp_hours between 0 and 100000)),
  constraint front_end_team_advisor_totals_cp_labour_in_range check (cp_labour is null or (cp_labour <> 'NaN' and cp_labour between 0 and 10000000)),
  constraint front_end_team_advisor_totals_cp_ros_in_range check (cp_ros is null or (cp_ros <> 'NaN' and (cp_ros between 0 and 100000 and cp_ros = trunc(cp_ros)))),
  constraint front_end_team_advisor_totals_internal_ros_in_range check (internal_ros is null or (internal_ros <> 'NaN' and (internal_ros between 0 and 100000 and internal_ros = trunc(internal_ros)))),
  constraint front_end_team_advisor_totals_labour_sales_in_range check (labour_sales is null or (labour_sales <> 'NaN' and labour_sales between 0 and 10000000)),
  constraint front_end_team_advisor_totals_month_in_range check (month between 1 and 12),
  constraint front_end_team_advisor_totals_parts_labour_in_range check (parts_labour is null or (parts_labour <> 'NaN' and parts_labour between 0 and 10000000)),
  constraint front_end_team_advisor_totals_total_hours_in_range check (total_hours is null or (total_hours <> 'NaN' and total_hours between 0 and 100000)),
  constraint front_end_team_advisor_totals_total_ros_in_range check (total_ros is null or (total_ros <> 'NaN' and (total_ros between 0 and 100000 and total_ros = trunc(total_ros)))),
  constraint front_end_team_advisor_totals_warranty_ros_in_range check (warranty_ros is null or (warranty_ros <> 'NaN' and (warranty_ros between 0 and 100000 and warranty_ros = trunc(warranty_ros)))),
  constraint front_end_team_advisor_totals_year_in_range check (year between 2000 and 2100)
);

comment on column public.front_end_team_advisor_totals.parts_labour is 'Parts and labour sales, in dollars.';
comment on column public.front_end_team_advisor_totals.labour_sales is 'Labour sales, in dollars.';
comment on column public.front_end_team_advisor_totals.total_ros is 'Repair orders: a count, though the column holds decimals.';
comment on column public.front_end_team_advisor_totals.total_hours is 'Hours sold.';
comment on column public.front_end_team_advisor_totals.cp_labour is 'Customer-pay labour sales, in dollars.';
comment on column public.front_end_team_advisor_totals.cp_ros is 'Customer-pay repair orders: a count.';
comment on column public.front_end_team_advisor_totals.cp_hours is 'Customer-pay hours sold.';
comment on column public.front_end_team_advisor_totals.internal_ros is 'Internal repair orders: a count.';
comment on column public.front_end_team_advisor_totals.warranty_ros is 'Warranty repair orders: a count.';
comment on column public.front_end_team_advisor_totals.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index front_end_team_advisor_totals_sync on public.front_end_team_advisor_totals (sync_xid, id);

alter table public.front_end_team_advisor_totals enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.front_end_team_advisor_totals
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.front_end_team_advisor_totals
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.front_end_team_advisor_totals
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.front_end_team_advisor_totals from anon;
revoke delete, truncate, references, trigger on public.front_end_team_advisor_totals from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.front_end_team_advisor_totals
  for each row
  execute function private.stamp_sync_columns();
-- A closed month's figures refuse every change (23M01, "month closed by NAME on DATE").
create trigger refuse_closed_month before insert or delete or update on public.front_end_team_advisor_totals
  for each row
  execute function private.refuse_closed_month();
-- Every change made through the API goes into the change history, once per statement.
create trigger record_change_insert after insert on public.front_end_team_advisor_totals
  referencing new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_update after update on public.front_end_team_advisor_totals
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_delete after delete on public.front_end_team_advisor_totals
  referencing old table as old_rows
  for each statement
  execute function private.record_changes();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.front_end_team_advisor_totals
  for each row
  when (old.entry_date is distinct from new.entry_date
        or old.id is distinct from new.id
        or old.advisor_id is distinct from new.advisor_id
        or old.store_id is distinct from new.store_id)
  execute function private.refuse_identity_change();

alter publication supabase_realtime add table public.front_end_team_advisor_totals;

insert into private.synced_tables (name, key_columns) values ('front_end_team_advisor_totals', array['store_id', 'advisor_id', 'entry_date']);
