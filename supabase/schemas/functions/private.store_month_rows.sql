-- One store's rows for one month, as the month screens read them on the store's own
-- device: the days' values, the week parts, targets, settings (a closed month's with the
-- work week and Work Mix target it was closed with) and calendar, the monthly table's
-- inputs, the month-end counts. Read by public.store_comparison. It runs as its owner,
-- because the figures' policies let a person read their own store's rows only (widening
-- them to admins would also send every store's figures to an admin's device, since the
-- sync reads whatever row-level security lets through), so it refuses anyone but an admin
-- itself, and an admin whose session lacks the second factor (docs/security.md,
-- "Multi-factor sign-in").
create or replace function private.store_month_rows(p_store uuid, p_month date) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not private.caller_is_admin() then
    raise exception 'Only an administrator can compare stores.' using errcode = '42501';
  end if;
  perform private.require_second_factor('Comparing stores');
  return jsonb_build_object(
    'daily', coalesce((select jsonb_agg(to_jsonb(d) - 'sync_xid') from public.daily_inputs d
                       where d.store_id = p_store and d.deleted_at is null
                         and d.entry_date >= p_month and d.entry_date < (p_month + interval '1 month')::date), '[]'),
    'weeks', coalesce((select jsonb_agg(to_jsonb(w) - 'sync_xid') from public.weekly_store_performance w
                       where w.store_id = p_store and w.deleted_at is null
                         and w.week_start_date >= p_month and w.week_start_date < (p_month + interval '1 month')::date), '[]'),
    'targets', coalesce((select jsonb_agg(to_jsonb(t) - 'sync_xid') from public.monthly_targets t
                         where t.store_id = p_store and t.deleted_at is null
                           and t.year = extract(year from p_month)::integer and t.month = extract(month from p_month)::integer), '[]'),
    'settings', (select (to_jsonb(s) - 'sync_xid') || coalesce((
                          select jsonb_build_object('work_week', c.work_week, 'mix_target_cp', c.mix_target_cp,
                                                    'mix_target_w', c.mix_target_w, 'mix_target_i', c.mix_target_i)
                          from public.month_closures c
                          where c.store_id = p_store and c.month_start = p_month and c.deleted_at is null
                            and c.work_week is not null), '{}'::jsonb)
                 from public.store_settings s where s.store_id = p_store and s.deleted_at is null),
    'calendar', coalesce((select jsonb_agg(to_jsonb(c) - 'sync_xid') from public.store_calendar_days c
                          where c.store_id = p_store and c.deleted_at is null
                            and c.calendar_date >= p_month and c.calendar_date < (p_month + interval '1 month')::date), '[]'),
    'labor_gross', coalesce((select jsonb_agg(to_jsonb(l) - 'sync_xid') from public.monthly_labor_gross_inputs l
                             where l.store_id = p_store and l.deleted_at is null and l.month_year = p_month), '[]'),
    'operational', (select to_jsonb(o) - 'sync_xid' from public.monthly_operational_inputs o
                    where o.store_id = p_store and o.deleted_at is null
                      and o.year = extract(year from p_month)::integer and o.month = extract(month from p_month)::integer));
end
$$;

revoke execute on function private.store_month_rows(uuid, date) from public;
grant execute on function private.store_month_rows(uuid, date) to authenticated, service_role;
