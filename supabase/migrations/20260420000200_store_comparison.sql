-- Store comparison, for admins: every store's rows for one month and the same month a
-- year before, as the month screens read them on a store's own device (the days' values,
-- the week parts, targets, settings and calendar, the monthly table's inputs, the
-- month-end counts). The app computes every figure from these with the same code as the
-- store's own screens, so the comparison and a store's tiles can never disagree.
--
-- Security definer (it reads every store), so it checks itself: anyone but an admin is
-- refused with 42501 by the database, whatever the screen shows.

create or replace function private.store_month_rows(p_store uuid, p_month date) returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'daily', coalesce((select jsonb_agg(to_jsonb(d) - 'sync_xid') from public.daily_inputs d
                       where d.store_id = p_store and d.deleted_at is null
                         and d.entry_date >= p_month and d.entry_date < (p_month + interval '1 month')::date), '[]'),
    'weeks', coalesce((select jsonb_agg(to_jsonb(w) - 'sync_xid') from public.weekly_store_performance w
                       where w.store_id = p_store and w.deleted_at is null
                         and w.week_start_date >= p_month and w.week_start_date < (p_month + interval '1 month')::date), '[]'),
    'targets', coalesce((select jsonb_agg(to_jsonb(t) - 'sync_xid') from public.monthly_targets t
                         where t.store_id = p_store and t.deleted_at is null
                           and t.year = extract(year from p_month)::integer and t.month = extract(month from p_month)::integer), '[]'),
    'settings', (select to_jsonb(s) - 'sync_xid' from public.store_settings s where s.store_id = p_store and s.deleted_at is null),
    'calendar', coalesce((select jsonb_agg(to_jsonb(c) - 'sync_xid') from public.store_calendar_days c
                          where c.store_id = p_store and c.deleted_at is null
                            and c.calendar_date >= p_month and c.calendar_date < (p_month + interval '1 month')::date), '[]'),
    'labor_gross', coalesce((select jsonb_agg(to_jsonb(l) - 'sync_xid') from public.monthly_labor_gross_inputs l
                             where l.store_id = p_store and l.deleted_at is null and l.month_year = p_month), '[]'),
    'operational', (select to_jsonb(o) - 'sync_xid' from public.monthly_operational_inputs o
                    where o.store_id = p_store and o.deleted_at is null
                      and o.year = extract(year from p_month)::integer and o.month = extract(month from p_month)::integer))
$$;

revoke all on function private.store_month_rows(uuid, date) from public;

create or replace function public.store_comparison(p_month date)
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_month date := date_trunc('month', p_month)::date;
begin
  if not public.is_user_admin() then
    raise exception 'Only an administrator can compare stores.' using errcode = '42501';
  end if;
  if p_month is null or v_month < date '2000-01-01' or v_month > date '2100-12-01' then
    raise exception 'store_comparison: a month from 2000 to 2100 is needed' using errcode = '22023';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'store_id', s.id,
             'name', s.name,
             'month', private.store_month_rows(s.id, v_month),
             'last_year', private.store_month_rows(s.id, (v_month - interval '1 year')::date))
           order by s.name)
    from public.stores s
    where s.deleted_at is null), '[]'::jsonb);
end
$$;

revoke execute on function public.store_comparison(date) from public, anon;
grant execute on function public.store_comparison(date) to authenticated, service_role;
