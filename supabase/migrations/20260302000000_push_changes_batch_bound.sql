-- push_changes takes at most 400 rows per call (serviceLimits.pushBatchRows in
-- src/domain/limits.ts; a test holds the two equal), so one push is bounded work for the
-- database. A larger batch is refused as a whole with 22023 before any row is written;
-- the device splits a refused batch, so a device that sends more still gets its rows in.
-- Everything else is exactly as in 20260201000100_push_changes.sql.

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
  v_key := case p_table
    when 'stores' then array['id']
    when 'store_settings' then array['store_id']
    when 'daily_inputs' then array['store_id', 'entry_date', 'row_identifier', 'metric_type']
    when 'weekly_store_performance' then array['store_id', 'week_start_date']
    when 'monthly_targets' then array['store_id', 'year', 'month', 'metric_key']
    when 'monthly_labor_gross_inputs' then array['store_id', 'month_year', 'labor_type']
    when 'yearly_financial_inputs' then array['store_id', 'year', 'month']
    when 'user_dashboard_preferences' then array['user_id', 'store_id']
    when 'front_end_team_advisors' then array['id']
    when 'front_end_team_daily_performance' then array['store_id', 'advisor_id', 'entry_date']
    when 'front_end_team_advisor_totals' then array['store_id', 'advisor_id', 'entry_date']
    when 'front_end_team_advisor_op_codes' then array['store_id', 'advisor_id', 'entry_date']
    when 'front_end_team_advisor_surveys' then array['store_id', 'advisor_id', 'entry_date']
    when 'front_end_team_totals' then array['store_id', 'entry_date']
    when 'front_end_team_op_codes' then array['store_id', 'entry_date']
    when 'front_end_team_surveys' then array['store_id', 'entry_date']
    when 'front_end_team_targets' then array['store_id', 'year', 'month']
    when 'advisor_survey_data' then array['store_id', 'advisor_id', 'year', 'month']
  end;
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
