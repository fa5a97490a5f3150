-- Change capture for the embedded stack's Realtime. Hosted Supabase reads the WAL
-- through logical replication; PGlite has none, so every table in the
-- supabase_realtime publication gets a row trigger that sends a NOTIFY after commit.
-- The payload carries only the primary key (and, for deletes, the old row's store and
-- user, and the old row itself when small): NOTIFY payloads are limited to 8000 bytes,
-- and the server reads each row back as each subscriber, under that subscriber's
-- row-level security. A deleted row cannot be read back: its store and user decide who
-- hears of it (realtime/visibility.ts).

create schema if not exists realtime_local;

create or replace function realtime_local.capture() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
  v_key jsonb := '{}'::jsonb;
  v_column text;
  v_payload jsonb;
begin
  foreach v_column in array tg_argv loop
    v_key := v_key || jsonb_build_object(v_column, v_row -> v_column);
  end loop;
  v_payload := jsonb_build_object(
    'schema', tg_table_schema, 'table', tg_table_name, 'type', tg_op, 'key', v_key,
    'commit_timestamp', to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
  if tg_op = 'DELETE' then
    -- Whose row it was, always (a few bytes): the server delivers a delete only to those
    -- who could have read the row. Never sent on to clients.
    v_payload := v_payload || jsonb_build_object('scope', jsonb_strip_nulls(jsonb_build_object(
      'store_id', v_row -> 'store_id', 'user_id', v_row -> 'user_id')));
    if octet_length(v_row::text) < 6000 then
      v_payload := v_payload || jsonb_build_object('old', v_row);
    end if;
  end if;
  perform pg_notify('realtime_local', v_payload::text);
  return null;
end
$$;

-- Gives every published table that lacks one the capture trigger, keyed by its primary key.
create or replace function realtime_local.attach_capture() returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_table record;
  v_keys text;
  v_count integer := 0;
begin
  for v_table in
    select p.schemaname, p.tablename, c.oid
    from pg_catalog.pg_publication_tables p
    join pg_catalog.pg_namespace n on n.nspname = p.schemaname
    join pg_catalog.pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
    where p.pubname = 'supabase_realtime'
      and not exists (select 1 from pg_catalog.pg_trigger t
                      where t.tgrelid = c.oid and t.tgname = 'realtime_local_capture')
  loop
    select string_agg(quote_literal(a.attname), ', ' order by k.ord) into v_keys
    from pg_catalog.pg_constraint con
    cross join unnest(con.conkey) with ordinality k(attnum, ord)
    join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum
    where con.conrelid = v_table.oid and con.contype = 'p';
    if v_keys is null then
      continue;
    end if;
    execute format(
      'create trigger realtime_local_capture after insert or update or delete on %I.%I
         for each row execute function realtime_local.capture(%s)',
      v_table.schemaname, v_table.tablename, v_keys);
    v_count := v_count + 1;
  end loop;
  return v_count;
end
$$;
