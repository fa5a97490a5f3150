-- Importing the dealer system's day-end numbers (docs/import.md).
--
-- 1. Where a change came from. A device's push may name, per row, the source of its
--    change ("imported from labour-sales-july.csv"); the change history keeps it in a
--    new column, source, beside the device and the typed time. Like those two it is
--    what the device says, shown as such: it gives no right and blocks nothing (the
--    change is written whatever the source says; more than 200 characters are cut, as
--    a device id is cut to 100). A change typed in the app names none (null), and so do
--    changes made through REST. docs/security.md, "The record of changes, and closed
--    months".
-- 2. The store's import mapping: which column of its dealer system's export holds what.
--    Saved once for the store in its settings, so every device of the store finds it;
--    JSON the app writes, bounded like any text field (store_settings_import_mapping_length,
--    fieldLimits.store_settings.import_mapping in src/domain/limits.ts).

alter table public.store_settings
  add column import_mapping text,
  add constraint store_settings_import_mapping_length check (import_mapping is null or char_length(import_mapping) <= 4000);

comment on column public.store_settings.import_mapping is
  'The dealer-system import''s column mapping, as JSON the app writes (src/domain/import/mapping.ts).';

alter table audit.change_history add column source text;

comment on column audit.change_history.source is
  'Where the device says the change came from (an imported file), or null for a change typed in the app.';

-- The view gains the column at its end; its grants and security_invoker stay.
create or replace view public.change_history with (security_invoker = true) as
  select id, store_id, table_name, row_key, field, old_value, new_value, changed_by, changed_by_name, device_id, typed_at, arrived_at, source
  from audit.change_history;

-- push_changes_reported with p_sources: one source (text, or null) per row sent, in the
-- order sent, as p_typed_at has one time per row. A call without it (every app version
-- before this one) is answered as before: the parameter has a default, and the old
-- signature is dropped so that a call is never ambiguous between the two.
drop function public.push_changes_reported(text, jsonb, jsonb, text);

create function public.push_changes_reported(p_table text, p_rows jsonb, p_typed_at jsonb default null, p_device text default null, p_sources jsonb default null)
returns jsonb
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_key text[];
  v_match text;
  v_before jsonb;
begin
  v_key := private.synced_table_key(p_table);
  perform set_config('app.push_device', left(coalesce(p_device, ''), 100), true);
  perform set_config('app.push_typed_at', '', true);
  perform set_config('app.push_source', '', true);
  if v_key is not null and jsonb_typeof(p_rows) = 'array' and jsonb_typeof(p_typed_at) = 'array'
     and jsonb_array_length(p_typed_at) = jsonb_array_length(p_rows) and jsonb_array_length(p_rows) <= 400 then
    -- Each row's key with its typed time, for the history trigger to find its row by key.
    perform set_config('app.push_typed_at', coalesce((
      select jsonb_agg(jsonb_build_object('k', (select jsonb_object_agg(k, r.value -> k) from unnest(v_key) k), 'at', t.value))
      from jsonb_array_elements(p_rows) with ordinality r(value, ord)
      join jsonb_array_elements(p_typed_at) with ordinality t(value, ord) on t.ord = r.ord
      where jsonb_typeof(r.value) = 'object')::text, ''), true);
  end if;
  if v_key is not null and jsonb_typeof(p_rows) = 'array' and jsonb_typeof(p_sources) = 'array'
     and jsonb_array_length(p_sources) = jsonb_array_length(p_rows) and jsonb_array_length(p_rows) <= 400 then
    -- Each row's key with its source, only for the rows that name one (text; anything else names none).
    perform set_config('app.push_source', coalesce((
      select jsonb_agg(jsonb_build_object('k', (select jsonb_object_agg(k, r.value -> k) from unnest(v_key) k), 's', left(s.value #>> '{}', 200)))
      from jsonb_array_elements(p_rows) with ordinality r(value, ord)
      join jsonb_array_elements(p_sources) with ordinality s(value, ord) on s.ord = r.ord
      where jsonb_typeof(r.value) = 'object' and jsonb_typeof(s.value) = 'string' and btrim(s.value #>> '{}') <> '')::text, ''), true);
  end if;
  if v_key is not null and jsonb_typeof(p_rows) = 'array' and jsonb_array_length(p_rows) between 1 and 400 then
    select string_agg(format('t.%1$I = s.%1$I', k), ' and ') into v_match from unnest(v_key) k;
    begin
      execute format('select coalesce(jsonb_agg(b.before order by s.ordinality), ''[]'')
                      from jsonb_populate_recordset(null::public.%1$I, $1) with ordinality s
                      left join lateral (select to_jsonb(t) - ''sync_xid'' as before
                                         from public.%1$I t where %2$s for update) b on true',
                     p_table, v_match)
        into v_before using p_rows;
    exception
      when transaction_rollback then
        raise;
      when others then
        v_before := null; -- a malformed batch: push_changes below raises that row's own error
    end;
  end if;
  return jsonb_build_object('rows', public.push_changes(p_table, p_rows), 'before', coalesce(v_before, '[]'::jsonb));
end
$$;

revoke execute on function public.push_changes_reported(text, jsonb, jsonb, text, jsonb) from public, anon;
grant execute on function public.push_changes_reported(text, jsonb, jsonb, text, jsonb) to authenticated, service_role;

-- The history trigger, as 20260703000000_history_records_week_label_changes.sql wrote it
-- (with the registry lookup 20260710000000 moved to private), now also keeping each row's
-- source from the push, found by its key as the typed time is.
create or replace function private.record_changes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_key_columns text[] := private.synced_table_key(tg_table_name);
  v_fields text[];
  v_typed jsonb;
  v_sources jsonb;
  v_device text;
  v_headers jsonb;
  v_user uuid;
  v_row text := case when tg_op = 'DELETE' then 'o' else 'n' end;
  v_rows text := case tg_op
    when 'INSERT' then 'new_rows n'
    when 'DELETE' then 'old_rows o'
    -- An update through the API never changes a row's id (20260701000000_immutable_identity.sql).
    else 'old_rows o join new_rows n on n.id = o.id' end;
  v_row_key text;
  v_values text;
begin
  -- Only changes made through the API (a request's role and claims) are the product's
  -- changes; the database owner's own SQL (migrations, the demo data, a restore) is not.
  if nullif(current_setting('request.jwt.claims', true), '') is null then
    return null;
  end if;
  select array_agg(a.attname::text order by octet_length(a.attname), a.attname::text collate "C")
    into v_fields
    from pg_catalog.pg_attribute a
   where a.attrelid = tg_relid and a.attnum > 0 and not a.attisdropped
     and not private.history_ignores_on(a.attname, tg_op) and not (a.attname = any (v_key_columns));
  if v_fields is null then
    return null;
  end if;
  -- The push's typed time of each row by its key (the first, should a key come twice),
  -- read once for the statement. A time that is not one is left out; only then is each
  -- time tried on its own (a subtransaction each), so a sound push costs one.
  begin
    v_typed := nullif(current_setting('app.push_typed_at', true), '')::jsonb;
    if jsonb_typeof(v_typed) is distinct from 'array' then
      v_typed := '[]'::jsonb;
    end if;
    select coalesce(jsonb_agg(jsonb_build_object('k', t.entry -> 'k', 'at', (t.entry ->> 'at')::timestamptz) order by t.ord), '[]')
      into v_typed
      from jsonb_array_elements(v_typed) with ordinality t(entry, ord)
      where jsonb_typeof(t.entry) = 'object';
  exception when others then
    begin
      select coalesce(jsonb_agg(jsonb_build_object('k', t.entry -> 'k', 'at', private.typed_time(t.entry ->> 'at')) order by t.ord), '[]')
        into v_typed
        from jsonb_array_elements(nullif(current_setting('app.push_typed_at', true), '')::jsonb) with ordinality t(entry, ord)
        where jsonb_typeof(t.entry) = 'object';
    exception when others then
      v_typed := '[]'::jsonb;
    end;
  end;
  -- The push's source of each row by its key: written by push_changes_reported only, from text it checked.
  begin
    v_sources := nullif(current_setting('app.push_source', true), '')::jsonb;
    if jsonb_typeof(v_sources) is distinct from 'array' then
      v_sources := '[]'::jsonb;
    end if;
  exception when others then
    v_sources := '[]'::jsonb;
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
  v_user := auth.uid();

  -- The row's key as JSON, and one (field, old, new) per recorded column.
  select 'jsonb_build_object(' || string_agg(format('%L, to_jsonb(%s.%I)', k, v_row, k), ', ' order by n) || ')'
    into v_row_key
    from unnest(v_key_columns) with ordinality u(k, n);
  select string_agg(format('(%s, %L, %s, %s)', n, f,
           case when tg_op = 'INSERT' then 'null::jsonb' else format('coalesce(to_jsonb(o.%I), ''null''::jsonb)', f) end,
           case when tg_op = 'DELETE' then 'null::jsonb' else format('coalesce(to_jsonb(n.%I), ''null''::jsonb)', f) end), ', ' order by n)
    into v_values
    from unnest(v_fields) with ordinality u(f, n);

  -- Transition tables are visible to a trigger function's dynamic SQL.
  execute format($sql$
    insert into audit.change_history
      (store_id, table_name, row_key, field, old_value, new_value, changed_by, changed_by_name, device_id, typed_at, source)
    with changed as (
      select %1$s.store_id, %2$s as row_key, v.ord, v.field, v.old_value, v.new_value
      from %3$s
      cross join lateral (values %4$s) v(ord, field, old_value, new_value)
    ), typed as (
      select distinct on (t.entry -> 'k') t.entry -> 'k' as row_key, (t.entry ->> 'at')::timestamptz as typed_at
      from jsonb_array_elements($5) with ordinality t(entry, ord)
      order by t.entry -> 'k', t.ord
    ), sourced as (
      select distinct on (s.entry -> 'k') s.entry -> 'k' as row_key, left(s.entry ->> 's', 200) as source
      from jsonb_array_elements($6) with ordinality s(entry, ord)
      where jsonb_typeof(s.entry) = 'object' and jsonb_typeof(s.entry -> 's') = 'string'
      order by s.entry -> 'k', s.ord
    )
    select c.store_id, $1, c.row_key, c.field, c.old_value, c.new_value, $2, $3, $4, t.typed_at, s.source
    from changed c
    left join typed t on t.row_key = c.row_key
    left join sourced s on s.row_key = c.row_key
    -- Empty before and after (a new row's empty fields, a removed row's) is no change.
    where coalesce(c.old_value, 'null'::jsonb) is distinct from coalesce(c.new_value, 'null'::jsonb)
    order by c.row_key, c.ord
  $sql$, v_row, v_row_key, v_rows, v_values)
  using tg_table_name, v_user, private.person_name(v_user), v_device, v_typed, v_sources;
  return null;
end
$$;
