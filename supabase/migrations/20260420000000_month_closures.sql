-- Closing a month. After review, a store's manager closes a month; from then on the
-- database refuses every insert, update and delete of that month's figures, whatever
-- the path (a device's push, plain REST, SQL as a signed-in user), with SQLSTATE 23M01
-- and the message "month closed by NAME on DATE" (the database owner's own SQL, such as
-- a restore, is not refused). A device that typed an edit offline
-- for a month closed meanwhile gets that refusal on its push and keeps the edit in its
-- refused list, with the reason, for export. Only an admin reopens a month.
--
-- A closure is one row per store and month, synced to devices like the figures (so an
-- offline device shows the month as closed). Who closed or reopened it and when are
-- stamped here from the session, never taken from the client.

create table public.month_closures (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  month_start date not null,
  -- Kept with the month so that a device's first sync can fetch recent years only.
  year integer not null,
  closed boolean not null default true,
  closed_by uuid,
  closed_by_name text,
  closed_at timestamptz,
  reopened_by uuid,
  reopened_by_name text,
  reopened_at timestamptz,
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint month_closures_natural_key unique (store_id, month_start),
  constraint month_closures_first_of_month check (extract(day from month_start) = 1),
  constraint month_closures_year_matches_month check (year = extract(year from month_start)::integer),
  constraint month_closures_year_in_range check (year between 2000 and 2100),
  constraint month_closures_closed_by_name_length check (closed_by_name is null or char_length(closed_by_name) <= 200),
  constraint month_closures_reopened_by_name_length check (reopened_by_name is null or char_length(reopened_by_name) <= 200)
);

create index month_closures_sync on public.month_closures (sync_xid, id);

select private.make_store_scoped('public.month_closures');

insert into private.synced_tables (name, key_columns) values
  ('month_closures', array['store_id', 'month_start']);

alter publication supabase_realtime add table public.month_closures;

-- The name a closure shows: the person's display name, else first and last name, else e-mail.
create or replace function private.person_name(p_user uuid) returns text
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    nullif(trim(u.raw_user_meta_data ->> 'display_name'), ''),
    nullif(trim(concat_ws(' ', u.raw_user_meta_data ->> 'first_name', u.raw_user_meta_data ->> 'last_name')), ''),
    u.email,
    'an administrator')
  from auth.users u where u.id = p_user
$$;

-- Stamps who closed or reopened a month, from the session; only an admin reopens.
create or replace function private.stamp_month_closure() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_name text := left(coalesce(private.person_name(auth.uid()), 'an administrator'), 200);
begin
  -- The database owner's own SQL (a restore) keeps who closed and reopened as written.
  if nullif(current_setting('request.jwt.claims', true), '') is null then
    return new;
  end if;
  -- Unclosing, or retiring the row of a closed month, is reopening it.
  if tg_op = 'UPDATE' and old.closed and old.deleted_at is null and (not new.closed or new.deleted_at is not null)
     and v_user is not null and not public.is_user_admin() then
    raise exception 'Only an administrator can reopen a closed month.' using errcode = '42501';
  end if;
  if new.closed and (tg_op = 'INSERT' or not old.closed) then
    new.closed_by := v_user;
    new.closed_by_name := v_name;
    new.closed_at := now();
  elsif tg_op = 'UPDATE' and new.closed then
    -- Closed already: sending it closed again changes nothing of who closed it.
    new.closed_by := old.closed_by;
    new.closed_by_name := old.closed_by_name;
    new.closed_at := old.closed_at;
  end if;
  if not new.closed and (tg_op = 'INSERT' or old.closed) then
    new.reopened_by := v_user;
    new.reopened_by_name := v_name;
    new.reopened_at := now();
  elsif tg_op = 'UPDATE' and not new.closed then
    new.reopened_by := old.reopened_by;
    new.reopened_by_name := old.reopened_by_name;
    new.reopened_at := old.reopened_at;
  end if;
  if tg_op = 'UPDATE' and (new.store_id <> old.store_id or new.month_start <> old.month_start) then
    raise exception 'A month closure cannot move to another store or month.' using errcode = '22023';
  end if;
  return new;
end
$$;

create trigger stamp_month_closure before insert or update on public.month_closures
  for each row execute function private.stamp_month_closure();

-- The month a figures row belongs to, from whichever date columns its table has.
create or replace function private.row_month(p_row jsonb) returns date
language sql immutable
set search_path = ''
as $$
  select case
    when p_row ? 'entry_date' then date_trunc('month', (p_row ->> 'entry_date')::date)::date
    when p_row ? 'week_start_date' then date_trunc('month', (p_row ->> 'week_start_date')::date)::date
    when p_row ? 'month_year' then date_trunc('month', (p_row ->> 'month_year')::date)::date
    -- A month out of range is left to the table's own check (its error, not this one's).
    when p_row ? 'year' and p_row ? 'month' and (p_row ->> 'month') ~ '^([1-9]|1[0-2])$' and (p_row ->> 'year') ~ '^[0-9]{4}$'
      then make_date((p_row ->> 'year')::integer, (p_row ->> 'month')::integer, 1)
  end
$$;

-- Refuses a change to a closed month's figures: the row as it was and as it would be.
create or replace function private.refuse_closed_month() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row jsonb;
  v_name text;
  v_at timestamptz;
begin
  -- The database owner's own SQL (a restore, migrations) is not a person's edit.
  if nullif(current_setting('request.jwt.claims', true), '') is null then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  foreach v_row in array array[
    case when tg_op <> 'INSERT' then to_jsonb(old) end,
    case when tg_op <> 'DELETE' then to_jsonb(new) end]
  loop
    continue when v_row is null or v_row ->> 'store_id' is null;
    select c.closed_by_name, c.closed_at into v_name, v_at
    from public.month_closures c
    where c.store_id = (v_row ->> 'store_id')::uuid
      and c.month_start = private.row_month(v_row)
      and c.closed and c.deleted_at is null;
    if found then
      raise exception 'month closed by % on %', coalesce(v_name, 'an administrator'), to_char(v_at, 'YYYY-MM-DD')
        using errcode = '23M01', hint = 'An administrator can reopen the month.';
    end if;
  end loop;
  return case when tg_op = 'DELETE' then old else new end;
end
$$;

-- Every synced table that holds a month's figures (a date, a week, a month) gets the guard.
do $$
declare
  v_table text;
begin
  for v_table in
    select t.name from private.synced_tables t
    where t.name not in ('stores', 'store_settings', 'user_dashboard_preferences', 'front_end_team_advisors', 'month_closures', 'store_calendar_days')
    order by t.name
  loop
    execute format('create trigger refuse_closed_month before insert or update or delete on public.%I
                      for each row execute function private.refuse_closed_month()', v_table);
  end loop;
end
$$;
