-- The month a row belongs to, from whichever date columns its table has (a day, a
-- calendar day, a week part, a month, or a year and month).
create or replace function private.row_month(p_row jsonb) returns date
language sql immutable
set search_path = ''
as $$
  select case
    when p_row ? 'entry_date' then date_trunc('month', (p_row ->> 'entry_date')::date)::date
    when p_row ? 'calendar_date' then date_trunc('month', (p_row ->> 'calendar_date')::date)::date
    when p_row ? 'week_start_date' then date_trunc('month', (p_row ->> 'week_start_date')::date)::date
    when p_row ? 'month_year' then date_trunc('month', (p_row ->> 'month_year')::date)::date
    -- A month out of range is left to the table's own check (its error, not this one's).
    when p_row ? 'year' and p_row ? 'month' and (p_row ->> 'month') ~ '^([1-9]|1[0-2])$' and (p_row ->> 'year') ~ '^[0-9]{4}$'
      then make_date((p_row ->> 'year')::integer, (p_row ->> 'month')::integer, 1)
  end
$$;

revoke all on function private.row_month(jsonb) from public;
