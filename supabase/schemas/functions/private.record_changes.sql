-- Writes the change history (audit.change_history), once per statement, from the
-- statement's transition tables: one row per changed field, with who (the session's user
-- and name), which device (the push's device id, or a REST request's X-Device-Id header),
-- when it was typed on the device (the push's per-row time; null when the client did not
-- say), where it came from when it was not typed (the push's per-row source, "imported
-- from FILE"; null otherwise), when it arrived, and the old and new value (JSON null for an empty field, none on
-- the side of a row that did not exist). Only the few recorded columns and the key are
-- converted, in one statement built for the table; the person's name is looked up once.
-- Changes made outside the API (migrations, the demo data, a restore) are not recorded.
-- Fields are listed in a JSON object's order (shorter names first). docs/security.md,
-- "The record of changes, and closed months".
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

revoke all on function private.record_changes() from public;
