-- pull_changes gains an optional year floor (p_min_year): a device's first sync fetches
-- the current and previous year rather than the store's whole history. The old
-- three-argument form is dropped so that calls by name stay unambiguous.

drop function public.pull_changes(text, jsonb, integer);

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
  if p_table is null or not (p_table = any (array[
    'stores', 'store_settings', 'daily_inputs', 'weekly_store_performance', 'monthly_targets',
    'monthly_labor_gross_inputs', 'yearly_financial_inputs', 'user_dashboard_preferences',
    'front_end_team_advisors', 'front_end_team_daily_performance',
    'front_end_team_advisor_totals', 'front_end_team_totals',
    'front_end_team_advisor_op_codes', 'front_end_team_op_codes',
    'front_end_team_advisor_surveys', 'front_end_team_surveys',
    'front_end_team_targets', 'advisor_survey_data'
  ])) then
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
