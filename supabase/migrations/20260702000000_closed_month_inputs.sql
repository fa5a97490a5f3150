-- A closed month is closed for everything its figures are computed from, and who closed
-- or reopened it is the server's word alone.
--
-- * Its calendar days (store_calendar_days) are refused like its figures: a holiday added
--   to a closed month changed its work days, and so every per-day figure, after closing.
-- * The store-wide settings a month's figures read (the work pattern's weekdays and the
--   Work Mix target) are kept with the closure as they were when the month closed: the
--   store may change them for the months to come without changing a closed month. The
--   device and the store comparison read a closed month's pattern from its closure.
-- * Every stamp on a closure (closed_by, closed_by_name, closed_at, reopened_*, and the
--   kept pattern) comes from the server on every path: a client's values are dropped on
--   insert and update, whether the month is closed, open or changes state.
-- * Names on closures and in the change history come from app_metadata, which only the
--   service role (the admin function) writes; user_metadata is the person's own to edit.
-- * Calendar days and the store's settings are in the change history, so "who made the
--   10th a holiday" and "who changed the work week" have an answer.

-- The name a closure or a history row shows: the display name an admin gave the person,
-- else the first and last name, else the e-mail address.
create or replace function private.person_name(p_user uuid) returns text
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    nullif(trim(u.raw_app_meta_data ->> 'displayName'), ''),
    nullif(trim(concat_ws(' ', nullif(trim(u.raw_app_meta_data ->> 'firstName'), ''), nullif(trim(u.raw_app_meta_data ->> 'lastName'), ''))), ''),
    u.email,
    'an administrator')
  from auth.users u where u.id = p_user
$$;

-- Accounts made before the admin function kept names in app_metadata: the names it wrote
-- into user_metadata (camelCase, as the admin screen sends them) are copied once. An
-- account that has an admin-given name already keeps it.
update auth.users u
   set raw_app_meta_data = coalesce(u.raw_app_meta_data, '{}'::jsonb) || jsonb_strip_nulls(jsonb_build_object(
         'displayName', nullif(trim(u.raw_user_meta_data ->> 'displayName'), ''),
         'firstName', nullif(trim(u.raw_user_meta_data ->> 'firstName'), ''),
         'lastName', nullif(trim(u.raw_user_meta_data ->> 'lastName'), '')))
 where not (coalesce(u.raw_app_meta_data, '{}'::jsonb) ?| array['displayName', 'firstName', 'lastName'])
   and coalesce(u.raw_user_meta_data, '{}'::jsonb) ?| array['displayName', 'firstName', 'lastName'];

-- The settings a closed month was closed with (null while it has never been closed).
alter table public.month_closures
  add column work_week text,
  add column mix_target_cp numeric(5, 2),
  add column mix_target_w numeric(5, 2),
  add column mix_target_i numeric(5, 2),
  add constraint month_closures_work_week_check check (work_week is null or work_week ~ '^[01]{7}$'),
  add constraint month_closures_mix_target_cp_in_range check (mix_target_cp is null or (mix_target_cp <> 'NaN' and mix_target_cp between 0 and 100)),
  add constraint month_closures_mix_target_w_in_range check (mix_target_w is null or (mix_target_w <> 'NaN' and mix_target_w between 0 and 100)),
  add constraint month_closures_mix_target_i_in_range check (mix_target_i is null or (mix_target_i <> 'NaN' and mix_target_i between 0 and 100));

-- What a store's month uses now: its work week and Work Mix target, or the defaults the
-- screens assume while it has none (Monday to Saturday; CP 40, W 30, I 30 percent).
create or replace function private.month_settings_now(p_store uuid)
returns table (work_week text, mix_target_cp numeric, mix_target_w numeric, mix_target_i numeric)
language sql stable security definer
set search_path = ''
as $$
  select coalesce(s.work_week, '1111110'), coalesce(s.mix_target_cp, 40), coalesce(s.mix_target_w, 30), coalesce(s.mix_target_i, 30)
  from (select 1) one
  left join public.store_settings s on s.store_id = p_store and s.deleted_at is null
$$;

-- Months closed before this: the settings of today are the best record there is.
update public.month_closures c
   set (work_week, mix_target_cp, mix_target_w, mix_target_i) =
       (select n.work_week, n.mix_target_cp, n.mix_target_w, n.mix_target_i from private.month_settings_now(c.store_id) n)
 where c.closed and c.deleted_at is null;

-- Stamps who closed or reopened a month, and the settings it was closed with, from the
-- session and the database; only an admin reopens. A closure is closed while `closed`
-- and not retired; retiring a closed month's row is reopening it.
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
    select n.work_week, n.mix_target_cp, n.mix_target_w, n.mix_target_i
      into new.work_week, new.mix_target_cp, new.mix_target_w, new.mix_target_i
      from private.month_settings_now(new.store_id) n;
  elsif v_was_closed and not v_closed then
    new.reopened_by := v_user;
    new.reopened_by_name := left(coalesce(private.person_name(v_user), 'an administrator'), 200);
    new.reopened_at := now();
  end if;
  return new;
end
$$;

-- The month a row belongs to now also reads a calendar day's date.
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

create trigger refuse_closed_month before insert or update or delete on public.store_calendar_days
  for each row execute function private.refuse_closed_month();

-- The store comparison shows a closed month with the settings it was closed with.
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
                          where c.store_id = p_store and c.month_start = p_month and c.closed and c.deleted_at is null
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

revoke all on function private.store_month_rows(uuid, date) from public;
revoke all on function private.month_settings_now(uuid) from public;

-- Calendar days and the store's settings join the change history with the same triggers
-- the figures' tables have (copied from daily_inputs', so they are whatever the history
-- is written by today). Names are schema-qualified while they are copied.
do $$
declare
  v_search_path text := current_setting('search_path');
  v_table text;
  v_definition text;
begin
  perform set_config('search_path', '', true);
  foreach v_table in array array['store_calendar_days', 'store_settings'] loop
    for v_definition in
      select pg_catalog.pg_get_triggerdef(t.oid) from pg_catalog.pg_trigger t
      where t.tgrelid = 'public.daily_inputs'::regclass and not t.tgisinternal and t.tgname like 'record\_change%'
      order by t.tgname
    loop
      execute replace(v_definition, ' ON public.daily_inputs ', format(' ON public.%I ', v_table));
    end loop;
  end loop;
  perform set_config('search_path', v_search_path, true);
  if (select count(distinct t.tgrelid) from pg_catalog.pg_trigger t
      where t.tgrelid in ('public.store_calendar_days'::regclass, 'public.store_settings'::regclass) and t.tgname like 'record\_change%') <> 2 then
    raise exception 'the change history''s triggers were not found on daily_inputs';
  end if;
end
$$;
