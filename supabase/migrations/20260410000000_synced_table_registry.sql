-- The synced tables and their natural keys in one place: private.synced_tables. Before
-- this, push_changes and pull_changes each held their own list, so a new synced table had
-- to restate both functions. Now a migration that adds a synced table inserts one row
-- here; public.synced_table_key() is how the functions (security invoker, so they cannot
-- read the private schema themselves) look a table up. The functions below are as in
-- 20260302000000_push_changes_batch_bound.sql and 20260201000000_pull_changes_min_year.sql
-- but for that lookup.

create table private.synced_tables (
  name text primary key,
  key_columns text[] not null check (cardinality(key_columns) between 1 and 8)
);

insert into private.synced_tables (name, key_columns) values
  ('stores', array['id']),
  ('store_settings', array['store_id']),
  ('daily_inputs', array['store_id', 'entry_date', 'row_identifier', 'metric_type']),
  ('weekly_store_performance', array['store_id', 'week_start_date']),
  ('monthly_targets', array['store_id', 'year', 'month', 'metric_key']),
  ('monthly_labor_gross_inputs', array['store_id', 'month_year', 'labor_type']),
  ('yearly_financial_inputs', array['store_id', 'year', 'month']),
  ('user_dashboard_preferences', array['user_id', 'store_id']),
  ('front_end_team_advisors', array['id']),
  ('front_end_team_daily_performance', array['store_id', 'advisor_id', 'entry_date']),
  ('front_end_team_advisor_totals', array['store_id', 'advisor_id', 'entry_date']),
  ('front_end_team_advisor_op_codes', array['store_id', 'advisor_id', 'entry_date']),
  ('front_end_team_advisor_surveys', array['store_id', 'advisor_id', 'entry_date']),
  ('front_end_team_totals', array['store_id', 'entry_date']),
  ('front_end_team_op_codes', array['store_id', 'entry_date']),
  ('front_end_team_surveys', array['store_id', 'entry_date']),
  ('front_end_team_targets', array['store_id', 'year', 'month']),
  ('advisor_survey_data', array['store_id', 'advisor_id', 'year', 'month']);

-- The natural key of a synced table, or null for any other name.
create or replace function public.synced_table_key(p_table text) returns text[]
language sql stable security definer
set search_path = ''
as $$
  select t.key_columns from private.synced_tables t where t.name = p_table
$$;

revoke execute on function public.synced_table_key(text) from public, anon;
grant execute on function public.synced_table_key(text) to authenticated, service_role;

create or replace function public.push_changes(p_table text, p_rows jsonb)
returns jsonb
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_key text[];
  v_row jsonb;
  v_columns text[];
  v_unknown text;
  v_set text;
  v_match text;
  v_out jsonb;
  v_result jsonb := '[]'::jsonb;
begin
  v_key := public.synced_table_key(p_table);
  if v_key is null then
    raise exception 'push_changes: "%" is not a synced table', p_table using errcode = '22023';
  end if;
  if jsonb_typeof(p_rows) is distinct from 'array' then
    raise exception 'push_changes: rows must be a JSON array' using errcode = '22023';
  end if;
  if jsonb_array_length(p_rows) > 400 then
    raise exception 'push_changes: % rows in one call; at most 400 are allowed', jsonb_array_length(p_rows)
      using errcode = '22023', hint = 'Send the rows in batches of at most 400.';
  end if;

  for v_row in select value from jsonb_array_elements(p_rows) loop
    if jsonb_typeof(v_row) <> 'object' then
      raise exception 'push_changes: each row must be a JSON object' using errcode = '22023';
    end if;
    select array_agg(k order by k) into v_columns from jsonb_object_keys(v_row) k;
    select k into v_unknown from unnest(v_columns) k
    where k in ('sync_xid', 'updated_at')
       or not exists (select 1 from information_schema.columns c
                      where c.table_schema = 'public' and c.table_name = p_table and c.column_name = k)
    limit 1;
    if v_unknown is not null then
      raise exception 'push_changes: column "%" of "%" cannot be written', v_unknown, p_table using errcode = '42703';
    end if;
    if not v_key <@ v_columns then
      raise exception 'push_changes: a "%" row needs its key %', p_table, v_key using errcode = '22023';
    end if;

    select string_agg(format('t.%1$I = r.%1$I', k), ' and ') into v_match from unnest(v_key) k;
    select string_agg(format('%1$I = r.%1$I', k), ', ') into v_set
    from unnest(v_columns) k where not (k = any (v_key));

    v_out := null;
    for attempt in 1..2 loop
      if v_set is not null then
        execute format('update public.%I t set %s from jsonb_populate_record(null::public.%I, $1) r where %s returning to_jsonb(t)',
                       p_table, v_set, p_table, v_match)
          into v_out using v_row;
      else
        execute format('select to_jsonb(t) from public.%I t, jsonb_populate_record(null::public.%I, $1) r where %s',
                       p_table, p_table, v_match)
          into v_out using v_row;
      end if;
      exit when v_out is not null;
      begin
        execute format('insert into public.%I (%s) select %s from jsonb_populate_record(null::public.%I, $1) r returning to_jsonb(%I.*)',
                       p_table,
                       (select string_agg(format('%I', k), ', ') from unnest(v_columns) k),
                       (select string_agg(format('r.%I', k), ', ') from unnest(v_columns) k),
                       p_table, p_table)
          into v_out using v_row;
        exit;
      exception when unique_violation then
        -- Another device created the row between our update and insert: update it instead.
        if attempt = 2 then
          raise;
        end if;
      end;
    end loop;
    v_result := v_result || jsonb_build_array(v_out - 'sync_xid');
  end loop;
  return v_result;
end
$$;

revoke execute on function public.push_changes(text, jsonb) from public, anon;
grant execute on function public.push_changes(text, jsonb) to authenticated, service_role;

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
  if public.synced_table_key(p_table) is null then
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
