-- A device's first sync in a handful of requests rather than one per table and page: each
-- requested table is one query (its columns and year floor from pg_attribute, its rows
-- aggregated straight to json), until the call's row budget is spent. Every table's page
-- comes with its own cursor (pull_changes' cursors: either function continues where the
-- other stopped), so the device stores each page and its cursor in one transaction (a lost
-- reply re-pulls, never skips). Answer: {pages: [{table, rows, cursor, has_more}]}, rows
-- without sync_xid, in (sync_xid, id) order. Runs as the caller: row-level security
-- decides what is seen.
create function public.pull_changes_many(
  p_requests jsonb,
  p_limit integer default 5000
) returns json
language plpgsql stable security invoker
set search_path = ''
as $$
declare
  v_request jsonb;
  v_table text;
  v_cursor jsonb;
  v_min_year integer;
  v_since xid8;
  v_after_xid xid8;
  v_after_id uuid;
  v_horizon xid8;
  v_columns text;
  v_year_filter text;
  v_rows json;
  v_count integer;
  v_last_xid xid8;
  v_last_id uuid;
  v_pages json[] := '{}';
  v_budget integer := p_limit;
begin
  -- The number is serviceLimits.pullRequestRows in src/domain/limits.ts (a test keeps them equal).
  if p_limit is null or p_limit < 1 or p_limit > 5000 then
    raise exception 'pull_changes_many: limit must be between 1 and 5000' using errcode = '22023';
  end if;
  if p_requests is null or jsonb_typeof(p_requests) <> 'array' or jsonb_array_length(p_requests) > 50 then
    raise exception 'pull_changes_many: requests must be an array of at most 50 tables' using errcode = '22023';
  end if;
  for v_request in select value from jsonb_array_elements(p_requests) loop
    exit when v_budget < 1;
    if jsonb_typeof(v_request) <> 'object' or jsonb_typeof(v_request -> 'table') <> 'string' then
      raise exception 'pull_changes_many: each request names its table' using errcode = '22023';
    end if;
    v_table := v_request ->> 'table';
    if private.synced_table_key(v_table) is null then
      raise exception 'pull_changes: "%" is not a synced table', v_table using errcode = '22023';
    end if;
    v_cursor := nullif(v_request -> 'cursor', 'null'::jsonb);
    v_min_year := (v_request ->> 'min_year')::integer;
    v_since := coalesce((v_cursor ->> 'since')::xid8, '0'::xid8);
    v_after_xid := (v_cursor ->> 'after_xid')::xid8;
    v_after_id := (v_cursor ->> 'after_id')::uuid;
    v_horizon := pg_catalog.pg_snapshot_xmin(pg_catalog.pg_current_snapshot());
    if v_cursor ? 'horizon' then
      v_horizon := least(v_horizon, (v_cursor ->> 'horizon')::xid8);
    end if;

    select pg_catalog.string_agg(pg_catalog.format('p.%I', a.attname), ', ' order by a.attnum)
      into v_columns
      from pg_catalog.pg_attribute a
      where a.attrelid = pg_catalog.to_regclass(pg_catalog.format('public.%I', v_table))
        and a.attnum > 0 and not a.attisdropped and a.attname <> 'sync_xid';
    v_year_filter := case private.synced_table_year_column(v_table)
      when 'year' then 'and ($5::integer is null or t.year >= $5)'
      when 'month_year' then 'and ($5::integer is null or t.month_year >= make_date($5, 1, 1))'
      else 'and ($5::integer is null or true)'
    end;

    -- The rows are aggregated in the order the subquery sorts them (as PostgREST does).
    execute pg_catalog.format($query$
      with page as (
        select t.sync_xid as pull_xid, t.id as pull_id, t.*
        from public.%1$I t
        where t.sync_xid >= $1
          and ($2::xid8 is null or (t.sync_xid, t.id) > ($2::xid8, $3::uuid))
          %2$s
        order by t.sync_xid, t.id
        limit $4
      ), last_row as (
        select pull_xid, pull_id from page order by pull_xid desc, pull_id desc limit 1
      )
      select coalesce((select json_agg(r) from (select %3$s from page p order by p.pull_xid, p.pull_id) r), '[]'::json),
             (select count(*)::integer from page),
             (select pull_xid from last_row),
             (select pull_id from last_row)
    $query$, v_table, v_year_filter, v_columns)
    into v_rows, v_count, v_last_xid, v_last_id
    using v_since, v_after_xid, v_after_id, v_budget, v_min_year;

    if v_count = v_budget then
      v_pages := v_pages || json_build_object(
        'table', v_table, 'rows', v_rows, 'has_more', true,
        'cursor', json_build_object(
          'since', v_since::text, 'horizon', v_horizon::text,
          'after_xid', v_last_xid::text, 'after_id', v_last_id));
    else
      v_pages := v_pages || json_build_object(
        'table', v_table, 'rows', v_rows, 'has_more', false,
        'cursor', json_build_object('since', v_horizon::text));
    end if;
    v_budget := v_budget - v_count;
  end loop;
  return json_build_object('pages', to_json(v_pages));
end
$$;

revoke execute on function public.pull_changes_many(jsonb, integer) from public, anon;
grant execute on function public.pull_changes_many(jsonb, integer) to authenticated, service_role;
