-- Who changed this number. Every change to a store's figures (insert, update, delete,
-- whatever the path: a device's push, plain REST, SQL) is recorded here by a trigger,
-- one row per changed field: who (the session's user and name), which device (the push's
-- device id, or a REST request's X-Device-Id header), when it was typed on the device
-- (the push's per-row time; null when the client did not say) and when it arrived at the
-- server, the old and the new value. Conflict-resolved writes are changes like any other.
--
-- Changes made outside the API (migrations, the demo data, a restore by the database's
-- owner) are not recorded. The history cannot be edited or deleted through the API: users get SELECT only (store
-- members of their store, admins of every store), and the only writer is the trigger,
-- which runs as the table's owner.

-- The rows live in their own schema; the API reads them through public.change_history, a
-- security-invoker view (so the table's row-level security applies to the reader), which
-- only grants SELECT. The table is not one of the synced tables: devices read it online.
create schema if not exists audit;
revoke all on schema audit from public;
grant usage on schema audit to authenticated, service_role;

create table audit.change_history (
  id bigint generated always as identity primary key,
  store_id uuid not null,
  table_name text not null,
  row_key jsonb not null,
  field text not null,
  old_value jsonb,
  new_value jsonb,
  changed_by uuid,
  changed_by_name text,
  device_id text,
  typed_at timestamptz,
  arrived_at timestamptz not null default now()
);

create index change_history_cell on audit.change_history (store_id, table_name, row_key, arrived_at desc);

alter table audit.change_history enable row level security;
create policy "Store members and admins read the history" on audit.change_history for select
  to authenticated using (store_id = (select public.get_user_store_id()) or (select public.is_user_admin()));
revoke all on audit.change_history from public, anon, authenticated;
grant select on audit.change_history to authenticated, service_role;

create view public.change_history with (security_invoker = true) as
  select id, store_id, table_name, row_key, field, old_value, new_value, changed_by, changed_by_name, device_id, typed_at, arrived_at
  from audit.change_history;
revoke all on public.change_history from public, anon, authenticated;
grant select on public.change_history to authenticated, service_role;

-- Fields that are bookkeeping, not figures: ids and sync stamps, and the calendar fields
-- a row derives from its date (its key says the date already).
create or replace function private.history_ignores(p_field text) returns boolean
language sql immutable
set search_path = ''
as $$
  select p_field in ('id', 'store_id', 'created_at', 'updated_at', 'sync_xid',
                     'year', 'month', 'day_of_week_iso', 'week_of_month_display', 'year_week_actual')
$$;

create or replace function private.record_change() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_old jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) end;
  v_new jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) end;
  v_row jsonb := coalesce(v_new, v_old);
  v_key_columns text[] := public.synced_table_key(tg_table_name);
  v_key jsonb;
  v_typed timestamptz;
  v_device text;
  v_headers jsonb;
begin
  -- Only changes made through the API (a request's role and claims) are the product's
  -- changes; the database owner's own SQL (migrations, the demo data, a restore) is not.
  if nullif(current_setting('request.jwt.claims', true), '') is null then
    return null;
  end if;
  select jsonb_object_agg(k, v_row -> k) into v_key from unnest(v_key_columns) k;
  -- The push's typed time of this row, found by its key.
  begin
    select (e ->> 'at')::timestamptz into v_typed
    from jsonb_array_elements(nullif(current_setting('app.push_typed_at', true), '')::jsonb) e
    where e -> 'k' = v_key
    limit 1;
  exception when others then
    v_typed := null; -- an unreadable time from a client never blocks the change itself
  end;
  v_device := nullif(current_setting('app.push_device', true), '');
  if v_device is null then
    begin
      v_headers := nullif(current_setting('request.headers', true), '')::jsonb;
      v_device := left(v_headers ->> 'x-device-id', 100);
    exception when others then
      v_device := null;
    end;
  end if;

  insert into audit.change_history
    (store_id, table_name, row_key, field, old_value, new_value, changed_by, changed_by_name, device_id, typed_at)
  select (v_row ->> 'store_id')::uuid, tg_table_name, v_key, f.field, v_old -> f.field, v_new -> f.field,
         auth.uid(), private.person_name(auth.uid()), v_device, v_typed
  from (select jsonb_object_keys(v_row) as field) f
  where not private.history_ignores(f.field)
    and not (f.field = any (v_key_columns))
    -- Empty before and after (a new row's empty fields, a removed row's) is no change.
    and coalesce(v_old -> f.field, 'null'::jsonb) is distinct from coalesce(v_new -> f.field, 'null'::jsonb);
  return null;
end
$$;

-- The same tables whose months can be closed: every synced table holding a store's figures.
do $$
declare
  v_table text;
begin
  for v_table in
    select t.name from private.synced_tables t
    where t.name not in ('stores', 'store_settings', 'user_dashboard_preferences', 'front_end_team_advisors', 'month_closures', 'store_calendar_days')
    order by t.name
  loop
    execute format('create trigger record_change after insert or update or delete on public.%I
                      for each row execute function private.record_change()', v_table);
  end loop;
end
$$;
