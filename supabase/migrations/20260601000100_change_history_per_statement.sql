-- The change history is written once per statement instead of once per row. The row
-- trigger looked each row's typed time up by parsing the push's whole list of typed
-- times again for every row (a batch of 400 rows parsed it 400 times), and looked up the
-- person's name and the table's key each time: about two thirds of a 400-row push's time
-- in the database. Now each statement's changed rows come from its transition tables,
-- the typed times are read once and joined by key, and the history rows are inserted in
-- one statement. What is recorded is unchanged: one row per changed field, who, which
-- device, when typed and when arrived, old and new value; changes made outside the API
-- are not recorded.

-- A client's typed time, or null when it is not one: an unreadable time never blocks the
-- change itself.
create or replace function private.typed_time(p_value text) returns timestamptz
language plpgsql stable
set search_path = ''
as $$
begin
  return p_value::timestamptz;
exception when others then
  return null;
end
$$;

create or replace function private.record_changes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_key_columns text[] := public.synced_table_key(tg_table_name);
  v_pairs jsonb;
  v_typed jsonb;
  v_device text;
  v_headers jsonb;
  v_user uuid;
begin
  -- Only changes made through the API (a request's role and claims) are the product's
  -- changes; the database owner's own SQL (migrations, the demo data, a restore) is not.
  if nullif(current_setting('request.jwt.claims', true), '') is null then
    return null;
  end if;
  -- Each changed row as [old, new], paired by id (an update never changes it).
  if tg_op = 'INSERT' then
    select jsonb_agg(jsonb_build_array(null, to_jsonb(n))) into v_pairs from new_rows n;
  elsif tg_op = 'UPDATE' then
    select jsonb_agg(jsonb_build_array(to_jsonb(o), to_jsonb(n))) into v_pairs from old_rows o join new_rows n on n.id = o.id;
  else
    select jsonb_agg(jsonb_build_array(to_jsonb(o), null)) into v_pairs from old_rows o;
  end if;
  if v_pairs is null then
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

  insert into audit.change_history
    (store_id, table_name, row_key, field, old_value, new_value, changed_by, changed_by_name, device_id, typed_at)
  with pairs as (
    select e.pair -> 0 as old_row, e.pair -> 1 as new_row,
           case when e.pair -> 1 = 'null'::jsonb then e.pair -> 0 else e.pair -> 1 end as row_values, e.ord
    from jsonb_array_elements(v_pairs) with ordinality e(pair, ord)
  ), keyed as (
    select p.*, (select jsonb_object_agg(k, p.row_values -> k) from unnest(v_key_columns) k) as row_key
    from pairs p
  ), typed as (
    select distinct on (t.entry -> 'k') t.entry -> 'k' as row_key, (t.entry ->> 'at')::timestamptz as typed_at
    from jsonb_array_elements(v_typed) with ordinality t(entry, ord)
    order by t.entry -> 'k', t.ord
  )
  select (c.row_values ->> 'store_id')::uuid, tg_table_name, c.row_key, f.field,
         nullif(c.old_row, 'null'::jsonb) -> f.field, nullif(c.new_row, 'null'::jsonb) -> f.field,
         v_user, private.person_name(v_user), v_device, t.typed_at
  from keyed c
  cross join lateral jsonb_object_keys(c.row_values) with ordinality f(field, ord)
  left join typed t on t.row_key = c.row_key
  where not private.history_ignores(f.field)
    and not (f.field = any (v_key_columns))
    -- Empty before and after (a new row's empty fields, a removed row's) is no change.
    and coalesce(nullif(c.old_row, 'null'::jsonb) -> f.field, 'null'::jsonb)
        is distinct from coalesce(nullif(c.new_row, 'null'::jsonb) -> f.field, 'null'::jsonb)
  order by c.ord, f.ord;
  return null;
end
$$;

do $$
declare
  v_table text;
begin
  for v_table in
    select c.relname from pg_catalog.pg_trigger t
    join pg_catalog.pg_class c on c.oid = t.tgrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and t.tgname = 'record_change'
    order by c.relname
  loop
    execute format('drop trigger record_change on public.%I', v_table);
    execute format('create trigger record_change_insert after insert on public.%I
                      referencing new table as new_rows for each statement execute function private.record_changes()', v_table);
    execute format('create trigger record_change_update after update on public.%I
                      referencing old table as old_rows new table as new_rows for each statement execute function private.record_changes()', v_table);
    execute format('create trigger record_change_delete after delete on public.%I
                      referencing old table as old_rows for each statement execute function private.record_changes()', v_table);
  end loop;
end
$$;

drop function private.record_change();
