-- Monthly financial figures for the yearly trend, one row per store and month. ros holds
-- the month's hours (see its comment); the percentages and net profit are derived on
-- the device.

create table public.yearly_financial_inputs (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  year integer not null,
  month integer not null,
  sales numeric(14, 2),
  gp_net numeric(14, 2),
  ros numeric(14, 2),
  personnel_exp numeric(14, 2),
  semi_fixed_exp numeric(14, 2),
  fixed_exp numeric(14, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint yearly_financial_inputs_natural_key unique (store_id, year, month),
  constraint yearly_financial_inputs_fixed_exp_in_range check (fixed_exp is null or (fixed_exp <> 'NaN' and fixed_exp between 0 and 10000000)),
  constraint yearly_financial_inputs_gp_net_in_range check (gp_net is null or (gp_net <> 'NaN' and gp_net between -10000000 and 10000000)),
  constraint yearly_financial_inputs_month_in_range check (month between 1 and 12),
  constraint yearly_financial_inputs_personnel_exp_in_range check (personnel_exp is null or (personnel_exp <> 'NaN' and personnel_exp between 0 and 10000000)),
  constraint yearly_financial_inputs_ros_in_range check (ros is null or (ros <> 'NaN' and ros between 0 and 100000)),
  constraint yearly_financial_inputs_sales_in_range check (sales is null or (sales <> 'NaN' and sales between 0 and 10000000)),
  constraint yearly_financial_inputs_semi_fixed_exp_in_range check (semi_fixed_exp is null or (semi_fixed_exp <> 'NaN' and semi_fixed_exp between 0 and 10000000)),
  constraint yearly_financial_inputs_year_in_range check (year between 2000 and 2100)
);

comment on column public.yearly_financial_inputs.gp_net is 'The month''s gross profit (GP Net), in dollars; may be a loss.';
comment on column public.yearly_financial_inputs.ros is 'Not repair orders nor return on sales, whatever the name says: the month''s hours (the yearly screen''s Hours column).';
comment on column public.yearly_financial_inputs.personnel_exp is 'The month''s personnel expenses, in dollars.';
comment on column public.yearly_financial_inputs.semi_fixed_exp is 'The month''s semi-fixed expenses, in dollars.';
comment on column public.yearly_financial_inputs.fixed_exp is 'The month''s fixed expenses, in dollars.';
comment on column public.yearly_financial_inputs.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index yearly_financial_inputs_sync on public.yearly_financial_inputs (sync_xid, id);

alter table public.yearly_financial_inputs enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.yearly_financial_inputs
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.yearly_financial_inputs
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.yearly_financial_inputs
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.yearly_financial_inputs from anon;
revoke delete, truncate, references, trigger on public.yearly_financial_inputs from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.yearly_financial_inputs
  for each row
  execute function private.stamp_sync_columns();
-- A closed month's figures refuse every change (23M01, "month closed by NAME on DATE").
create trigger refuse_closed_month before insert or delete or update on public.yearly_financial_inputs
  for each row
  execute function private.refuse_closed_month();
-- Every change made through the API goes into the change history, once per statement.
create trigger record_change_insert after insert on public.yearly_financial_inputs
  referencing new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_update after update on public.yearly_financial_inputs
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_delete after delete on public.yearly_financial_inputs
  referencing old table as old_rows
  for each statement
  execute function private.record_changes();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.yearly_financial_inputs
  for each row
  when (old.id is distinct from new.id
        or old.month is distinct from new.month
        or old.store_id is distinct from new.store_id
        or old.year is distinct from new.year)
  execute function private.refuse_identity_change();

alter publication supabase_realtime add table public.yearly_financial_inputs;

insert into private.synced_tables (name, key_columns) values ('yearly_financial_inputs', array['store_id', 'year', 'month']);
