-- The monthly table's entered figures, one row per store, month and labour type: gross,
-- sublet sales, and the month's repair-order count (the column return_on_sales, whose
-- name misleads: see its comment). direct_sales_value is only meaningful for sublet.

create table public.monthly_labor_gross_inputs (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  month_year date not null check (extract(day from month_year) = 1),
  labor_type text not null
    check (labor_type in ('customerPay', 'warranty', 'internal', 'sublet', 'unappliedTime')),
  gross_value numeric(14, 2),
  direct_sales_value numeric(14, 2),
  return_on_sales numeric(14, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint monthly_labor_gross_inputs_natural_key unique (store_id, month_year, labor_type),
  constraint monthly_labor_gross_inputs_direct_sales_value_in_range check (direct_sales_value is null or (direct_sales_value <> 'NaN' and direct_sales_value between 0 and 10000000)),
  constraint monthly_labor_gross_inputs_gross_value_in_range check (gross_value is null or (gross_value <> 'NaN' and gross_value between -10000000 and 10000000)),
  constraint monthly_labor_gross_inputs_return_on_sales_in_range check (return_on_sales is null or (return_on_sales <> 'NaN' and (return_on_sales between 0 and 100000 and return_on_sales = trunc(return_on_sales))))
);

comment on column public.monthly_labor_gross_inputs.month_year is 'The month, as its first day.';
comment on column public.monthly_labor_gross_inputs.labor_type is 'The labour type: customerPay, warranty, internal, sublet or unappliedTime.';
comment on column public.monthly_labor_gross_inputs.gross_value is 'The month''s gross profit of the labour type, in dollars; may be a loss.';
comment on column public.monthly_labor_gross_inputs.direct_sales_value is 'The month''s sublet sales, in dollars; only the sublet row uses it.';
comment on column public.monthly_labor_gross_inputs.return_on_sales is 'Not a return on sales, whatever the name says: the month''s count of repair orders of the labour type (the monthly table''s RO''s column), a whole number.';
comment on column public.monthly_labor_gross_inputs.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index monthly_labor_gross_inputs_sync on public.monthly_labor_gross_inputs (sync_xid, id);

alter table public.monthly_labor_gross_inputs enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.monthly_labor_gross_inputs
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.monthly_labor_gross_inputs
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.monthly_labor_gross_inputs
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.monthly_labor_gross_inputs from anon;
revoke delete, truncate, references, trigger on public.monthly_labor_gross_inputs from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.monthly_labor_gross_inputs
  for each row
  execute function private.stamp_sync_columns();
-- A closed month's figures refuse every change (23M01, "month closed by NAME on DATE").
create trigger refuse_closed_month before insert or delete or update on public.monthly_labor_gross_inputs
  for each row
  execute function private.refuse_closed_month();
-- Every change made through the API goes into the change history, once per statement.
create trigger record_change_insert after insert on public.monthly_labor_gross_inputs
  referencing new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_update after update on public.monthly_labor_gross_inputs
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_delete after delete on public.monthly_labor_gross_inputs
  referencing old table as old_rows
  for each statement
  execute function private.record_changes();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.monthly_labor_gross_inputs
  for each row
  when (old.id is distinct from new.id
        or old.month_year is distinct from new.month_year
        or old.store_id is distinct from new.store_id
        or old.labor_type is distinct from new.labor_type)
  execute function private.refuse_identity_change();

alter publication supabase_realtime add table public.monthly_labor_gross_inputs;

insert into private.synced_tables (name, key_columns) values ('monthly_labor_gross_inputs', array['store_id', 'month_year', 'labor_type']);
