-- How many rows a first pull of these tables brings the caller: the rows row-level
-- security lets it read (removed ones too: a pull brings them), from p_min_year on where
-- the table has a year (the same floor as pull_changes). An estimate for a progress bar,
-- never a cursor.
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
    if private.synced_table_key(v_table) is null then
      raise exception 'pull_row_counts: "%" is not a synced table', v_table using errcode = '22023';
    end if;
    v_floor := case private.synced_table_year_column(v_table)
      when 'year' then 'and ($1::integer is null or t.year >= $1)'
      when 'month_year' then 'and ($1::integer is null or t.month_year >= make_date($1, 1, 1))'
      else 'and ($1::integer is null or true)'
    end;
    execute format('select count(*) from public.%I t where true %s', v_table, v_floor)
      into v_count using p_min_year;
    v_counts := v_counts || jsonb_build_object(v_table, v_count);
  end loop;
  return v_counts;
end
$$;

revoke execute on function public.pull_row_counts(text[], integer) from public, anon;
grant execute on function public.pull_row_counts(text[], integer) to authenticated, service_role;
