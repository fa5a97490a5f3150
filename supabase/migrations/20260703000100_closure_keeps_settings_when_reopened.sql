-- A month keeps the work week and Work Mix target it was first closed with when an admin
-- reopens it and it is closed again. Reopening is for correcting a figure; had it taken
-- the store's settings of the day, a month reopened after the store changed its pattern
-- would silently get other work days (and so other per-day figures and pace) for the
-- correction, and keep them once closed again. A closure first closed keeps the store's
-- settings of that moment, as before; the store comparison and the devices use a
-- closure's kept settings whether it is closed now or reopened. docs/figures.md.

create or replace function private.stamp_month_closure() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_was_closed boolean := tg_op = 'UPDATE' and old.closed and old.deleted_at is null;
  v_closed boolean := new.closed and new.deleted_at is null;
begin
  -- The database owner's own SQL (a restore) keeps who closed and reopened as written.
  if nullif(current_setting('request.jwt.claims', true), '') is null then
    return new;
  end if;
  if tg_op = 'UPDATE' and (new.store_id <> old.store_id or new.month_start <> old.month_start) then
    raise exception 'A month closure cannot move to another store or month.' using errcode = '22023';
  end if;
  if v_was_closed and not v_closed and v_user is not null and not public.is_user_admin() then
    raise exception 'Only an administrator can reopen a closed month.' using errcode = '42501';
  end if;
  -- Whatever the client sent, the stamps start as the server left them (none on a new row).
  if tg_op = 'INSERT' then
    new.closed_by := null; new.closed_by_name := null; new.closed_at := null;
    new.reopened_by := null; new.reopened_by_name := null; new.reopened_at := null;
    new.work_week := null; new.mix_target_cp := null; new.mix_target_w := null; new.mix_target_i := null;
  else
    new.closed_by := old.closed_by; new.closed_by_name := old.closed_by_name; new.closed_at := old.closed_at;
    new.reopened_by := old.reopened_by; new.reopened_by_name := old.reopened_by_name; new.reopened_at := old.reopened_at;
    new.work_week := old.work_week; new.mix_target_cp := old.mix_target_cp;
    new.mix_target_w := old.mix_target_w; new.mix_target_i := old.mix_target_i;
  end if;
  if v_closed and not v_was_closed then
    new.closed_by := v_user;
    new.closed_by_name := left(coalesce(private.person_name(v_user), 'an administrator'), 200);
    new.closed_at := now();
    -- First closing only: a month closed before keeps what it was closed with.
    if new.work_week is null then
      select n.work_week, n.mix_target_cp, n.mix_target_w, n.mix_target_i
        into new.work_week, new.mix_target_cp, new.mix_target_w, new.mix_target_i
        from private.month_settings_now(new.store_id) n;
    end if;
  elsif v_was_closed and not v_closed then
    new.reopened_by := v_user;
    new.reopened_by_name := left(coalesce(private.person_name(v_user), 'an administrator'), 200);
    new.reopened_at := now();
  end if;
  return new;
end
$$;

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
                      and o.year = extract(year from p_month)::integer and o.month = extract(month from p_month)::integer))
$$;
