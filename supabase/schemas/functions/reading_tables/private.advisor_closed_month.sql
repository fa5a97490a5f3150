-- The earliest closed month of the store in which the advisor has a live figure, if any.
create or replace function private.advisor_closed_month(p_store uuid, p_advisor uuid) returns date
language sql stable security definer
set search_path = ''
as $$
  select min(c.month_start)
  from public.month_closures c
  where c.store_id = p_store and c.closed and c.deleted_at is null
    and exists (
      select 1 from (
        select year, month from public.front_end_team_daily_performance where advisor_id = p_advisor and store_id = p_store and deleted_at is null
        union all
        select year, month from public.front_end_team_advisor_totals where advisor_id = p_advisor and store_id = p_store and deleted_at is null
        union all
        select year, month from public.front_end_team_advisor_op_codes where advisor_id = p_advisor and store_id = p_store and deleted_at is null
        union all
        select year, month from public.front_end_team_advisor_surveys where advisor_id = p_advisor and store_id = p_store and deleted_at is null
        union all
        select year, month from public.advisor_survey_data where advisor_id = p_advisor and store_id = p_store and deleted_at is null
      ) f
      where make_date(f.year, f.month, 1) = c.month_start)
$$;

revoke all on function private.advisor_closed_month(uuid, uuid) from public;
