-- Incremental pull for the offline clients: the rows of one synced table that changed
-- since the client's cursor, in pages, with the cursor for the next call.
--
-- Why transaction ids and not updated_at: now() is taken when a transaction starts, so a
-- long transaction that commits after a pull would carry a timestamp older than that
-- pull's cursor and never be seen. Instead every row carries the xid8 of the transaction
-- that last wrote it (sync_xid), and a finished pull moves the cursor to the xmin of its
-- snapshot: every transaction below it had finished when the pull read, so its rows were
-- visible; every transaction at or above it may still commit later and will be read on
-- the next pull. Rows of a transaction that was running during the pull may therefore be
-- sent twice; clients apply rows idempotently, so that costs nothing.
--
-- Paging: within one cycle the lower bound (since) stays fixed and pages advance by
-- (sync_xid, id); the horizon kept in the cursor is the smallest snapshot xmin seen over
-- the cycle's pages, so a transaction invisible to any page is read next cycle.
-- p_min_year: a device's first sync fetches the current and previous year only (tables
-- with a year or month_year column; the others are small and come whole).
--
-- security invoker: the caller's row-level security decides which rows come back.
create or replace function public.pull_changes(
  p_table text,
  p_cursor jsonb default null,
  p_limit integer default 500,
  p_min_year integer default null
) returns jsonb
language plpgsql stable security invoker
set search_path = ''
as $$
declare
  v_since xid8 := coalesce((p_cursor ->> 'since')::xid8, '0'::xid8);
  v_after_xid xid8 := (p_cursor ->> 'after_xid')::xid8;
  v_after_id uuid := (p_cursor ->> 'after_id')::uuid;
  v_horizon xid8 := pg_catalog.pg_snapshot_xmin(pg_catalog.pg_current_snapshot());
  v_rows jsonb;
  v_count integer;
  v_last_xid xid8;
  v_last_id uuid;
  v_year_filter text;
begin
  if private.synced_table_key(p_table) is null then
    raise exception 'pull_changes: "%" is not a synced table', p_table using errcode = '22023';
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    raise exception 'pull_changes: limit must be between 1 and 1000' using errcode = '22023';
  end if;
  -- The optional year floor: tables with a year column, or with month_year, keep rows
  -- from p_min_year on; other tables are small and come whole.
  select case
    when exists (select 1 from information_schema.columns
                 where table_schema = 'public' and table_name = p_table and column_name = 'year')
      then 'and ($5::integer is null or t.year >= $5)'
    when exists (select 1 from information_schema.columns
                 where table_schema = 'public' and table_name = p_table and column_name = 'month_year')
      then 'and ($5::integer is null or t.month_year >= make_date($5, 1, 1))'
    else 'and ($5::integer is null or true)'
  end into v_year_filter;

  if p_cursor ? 'horizon' then
    v_horizon := least(v_horizon, (p_cursor ->> 'horizon')::xid8);
  end if;

  execute format($query$
    with page as (
      select t.sync_xid, t.id, to_jsonb(t) - 'sync_xid' as row
      from public.%I t
      where t.sync_xid >= $1
        and ($2::xid8 is null or (t.sync_xid, t.id) > ($2::xid8, $3::uuid))
        %s
      order by t.sync_xid, t.id
      limit $4
    ), last_row as (
      select sync_xid, id from page order by sync_xid desc, id desc limit 1
    )
    select coalesce((select jsonb_agg(row order by sync_xid, id) from page), '[]'::jsonb),
           (select count(*)::integer from page),
           (select sync_xid from last_row),
           (select id from last_row)
  $query$, p_table, v_year_filter)
  into v_rows, v_count, v_last_xid, v_last_id
  using v_since, v_after_xid, v_after_id, p_limit, p_min_year;

  if v_count = p_limit then
    return jsonb_build_object(
      'rows', v_rows,
      'has_more', true,
      'cursor', jsonb_build_object(
        'since', v_since::text, 'horizon', v_horizon::text,
        'after_xid', v_last_xid::text, 'after_id', v_last_id));
  end if;
  return jsonb_build_object(
    'rows', v_rows,
    'has_more', false,
    'cursor', jsonb_build_object('since', v_horizon::text));
end
$$;

revoke execute on function public.pull_changes(text, jsonb, integer, integer) from public, anon;
grant execute on function public.pull_changes(text, jsonb, integer, integer) to authenticated, service_role;
