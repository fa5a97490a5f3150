-- A device's first sync in a handful of requests rather than one per table and page.
--
-- pull_changes_many pulls several tables in one call: it runs pull_changes for each
-- requested table in turn, page after page, until the table is done or the call's row
-- budget is spent, and answers every page with its own cursor, so the device stores each
-- page and its cursor in one transaction exactly as before (a lost reply re-pulls, never
-- skips). pull_row_counts tells a device how many rows its first pull will bring, for
-- its progress bar. Both run as the caller: row-level security decides what is seen.

create or replace function public.pull_changes_many(
  p_requests jsonb,
  p_limit integer default 5000
) returns jsonb
language plpgsql stable security invoker
set search_path = ''
as $$
declare
  v_request jsonb;
  v_table text;
  v_cursor jsonb;
  v_min_year integer;
  v_page jsonb;
  v_pages jsonb := '[]'::jsonb;
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
    v_cursor := nullif(v_request -> 'cursor', 'null'::jsonb);
    v_min_year := (v_request ->> 'min_year')::integer;
    loop
      v_page := public.pull_changes(v_table, v_cursor, least(v_budget, 1000), v_min_year);
      v_pages := v_pages || jsonb_build_array(jsonb_build_object(
        'table', v_table, 'rows', v_page -> 'rows', 'cursor', v_page -> 'cursor', 'has_more', v_page -> 'has_more'));
      v_budget := v_budget - jsonb_array_length(v_page -> 'rows');
      exit when not (v_page ->> 'has_more')::boolean or v_budget < 1;
      v_cursor := v_page -> 'cursor';
    end loop;
  end loop;
  return jsonb_build_object('pages', v_pages);
end
$$;

revoke execute on function public.pull_changes_many(jsonb, integer) from public, anon;
grant execute on function public.pull_changes_many(jsonb, integer) to authenticated, service_role;

-- How many rows a first pull of these tables brings the caller: the rows row-level
-- security lets it read (removed ones too: a pull brings them), from p_min_year on where the table has a year
-- (the same floor as pull_changes). An estimate for a progress bar, never a cursor.
create or replace function public.pull_row_counts(
  p_tables text[],
  p_min_year integer default null
) returns jsonb
language plpgsql stable security invoker
set search_path = ''
as $$
declare
  v_table text;
  v_floor text;
  v_count bigint;
  v_counts jsonb := '{}'::jsonb;
begin
  if p_tables is null or cardinality(p_tables) > 50 then
    raise exception 'pull_row_counts: at most 50 tables' using errcode = '22023';
  end if;
  foreach v_table in array p_tables loop
    if public.synced_table_key(v_table) is null then
      raise exception 'pull_row_counts: "%" is not a synced table', v_table using errcode = '22023';
    end if;
    select case
      when exists (select 1 from information_schema.columns
                   where table_schema = 'public' and table_name = v_table and column_name = 'year')
        then 'and ($1::integer is null or t.year >= $1)'
      when exists (select 1 from information_schema.columns
                   where table_schema = 'public' and table_name = v_table and column_name = 'month_year')
        then 'and ($1::integer is null or t.month_year >= make_date($1, 1, 1))'
      else 'and ($1::integer is null or true)'
    end into v_floor;
    execute format('select count(*) from public.%I t where true %s', v_table, v_floor)
      into v_count using p_min_year;
    v_counts := v_counts || jsonb_build_object(v_table, v_count);
  end loop;
  return v_counts;
end
$$;

revoke execute on function public.pull_row_counts(text[], integer) from public, anon;
grant execute on function public.pull_row_counts(text[], integer) to authenticated, service_role;
