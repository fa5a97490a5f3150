-- Per-month KPI targets, one row per metric key (hoursPerDay, salesPerDay, cpElr, ...).
-- The spec reads several spellings of the ELR keys, so the key is checked for shape
-- rather than against a closed list.

create table public.monthly_targets (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  year integer not null,
  month integer not null,
  metric_key text not null check (metric_key ~ '^[a-z][A-Za-z0-9]{1,63}$'),
  target_value numeric(14, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint monthly_targets_natural_key unique (store_id, year, month, metric_key),
  constraint monthly_targets_month_in_range check (month between 1 and 12),
  constraint monthly_targets_year_in_range check (year between 2000 and 2100),
  constraint monthly_targets_target_value_in_range check (target_value is null or (target_value <> 'NaN' and case metric_key
      when 'hoursPerDay' then target_value between 0 and 3000
      when 'salesPerDay' then target_value between 0 and 1500000
      when 'cpElr' then target_value between 0 and 1000
      when 'warrantyElr' then target_value between 0 and 1000
      when 'warElr' then target_value between 0 and 1000
      when 'internalElr' then target_value between 0 and 1000
      when 'intElr' then target_value between 0 and 1000
      when 'totalElr' then target_value between 0 and 1000
      when 'cpHoursPerRo' then target_value between 0 and 50
      when 'rosOver30Days' then (target_value between 0 and 100000 and target_value = trunc(target_value))
      when 'shopSupplies' then target_value between 0 and 10000000
      when 'daysComplete' then (target_value between 0 and 31 and target_value = trunc(target_value))
      when 'rosOver45Days' then (target_value between 0 and 100000 and target_value = trunc(target_value))
      when 'weOweOver30Days' then (target_value between 0 and 100000 and target_value = trunc(target_value))
      when 'grossPerEmployee' then target_value between 0 and 10000000
      else target_value between 0 and 10000000
    end))
);

comment on column public.monthly_targets.metric_key is 'Which target: hoursPerDay, salesPerDay, cpElr, ... (src/domain/targets.ts); target_value''s limit depends on it.';
comment on column public.monthly_targets.target_value is 'The target, in the unit of metric_key''s figure (hours, dollars, dollars per hour, a count); null: no target.';
comment on column public.monthly_targets.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index monthly_targets_sync on public.monthly_targets (sync_xid, id);

alter table public.monthly_targets enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.monthly_targets
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.monthly_targets
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.monthly_targets
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.monthly_targets from anon;
revoke delete, truncate, references, trigger on public.monthly_targets from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.monthly_targets
  for each row
  execute function private.stamp_sync_columns();
-- A closed month's figures refuse every change (23M01, "month closed by NAME on DATE").
create trigger refuse_closed_month before insert or delete or update on public.monthly_targets
  for each row
  execute function private.refuse_closed_month();
-- Every change made through the API goes into the change history, once per statement.
create trigger record_change_insert after insert on public.monthly_targets
  referencing new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_update after update on public.monthly_targets
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_delete after delete on public.monthly_targets
  referencing old table as old_rows
  for each statement
  execute function private.record_changes();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.monthly_targets
  for each row
  when (old.id is distinct from new.id
        or old.month is distinct from new.month
        or old.store_id is distinct from new.store_id
        or old.year is distinct from new.year
        or old.metric_key is distinct from new.metric_key)
  execute function private.refuse_identity_change();

alter publication supabase_realtime add table public.monthly_targets;

insert into private.synced_tables (name, key_columns) values ('monthly_targets', array['store_id', 'year', 'month', 'metric_key']);
