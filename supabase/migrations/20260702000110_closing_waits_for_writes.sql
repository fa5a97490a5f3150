-- Closing a month and writing to it are ordered. Before this, a write that began before a
-- month's closure committed did not see it and landed after it (PostgreSQL runs them side
-- by side; PGlite runs one transaction at a time and never had the race): the manager
-- closed a month that then held a figure nobody had seen, and a write racing a closing
-- in flight was taken too.
--
-- Every write to a month's inputs (the guard below, on every table a month's figures
-- read) holds a shared lock on that store's month until its transaction ends; closing
-- the month takes the same lock exclusively. So a closing waits for the writes in flight
-- to commit (they are then part of what was closed), and a write that comes while a
-- closing is in flight waits for it and is then refused (23M01). Writes to other months
-- or stores do not wait. The locks are transaction-level advisory locks, keyed by the
-- store and the month (a shared key for two months would only make one wait for the
-- other, never let a write through). Closing two months in one statement while one push
-- writes both may deadlock; PostgreSQL then ends one of the two (40P01) and the device
-- retries it.

-- The lock of a store's month: (a hash of the store, year * 100 + month).
create or replace function private.lock_month(p_store uuid, p_month date, p_exclusive boolean) returns void
language plpgsql volatile
set search_path = ''
as $$
declare
  v_store integer := pg_catalog.hashtext('month ' || p_store::text);
  v_month integer := (extract(year from p_month) * 100 + extract(month from p_month))::integer;
begin
  if p_exclusive then
    perform pg_catalog.pg_advisory_xact_lock(v_store, v_month);
  else
    perform pg_catalog.pg_advisory_xact_lock_shared(v_store, v_month);
  end if;
end
$$;

revoke all on function private.lock_month(uuid, date, boolean) from public;

-- As in 20260420000000_month_closures.sql, with the month's lock taken before its
-- closure is looked up (the lookup then sees a closing that committed while it waited).
create or replace function private.refuse_closed_month() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row jsonb;
  v_month date;
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
    v_month := private.row_month(v_row);
    continue when v_month is null;
    perform private.lock_month((v_row ->> 'store_id')::uuid, v_month, false);
    select c.closed_by_name, c.closed_at into v_name, v_at
    from public.month_closures c
    where c.store_id = (v_row ->> 'store_id')::uuid
      and c.month_start = v_month
      and c.closed and c.deleted_at is null;
    if found then
      raise exception 'month closed by % on %', coalesce(v_name, 'an administrator'), to_char(v_at, 'YYYY-MM-DD')
        using errcode = '23M01', hint = 'An administrator can reopen the month.';
    end if;
  end loop;
  return case when tg_op = 'DELETE' then old else new end;
end
$$;

-- Closing (a new closed row, or a row becoming closed) waits for the month's writes in flight.
create or replace function private.lock_month_for_closing() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.closed and new.deleted_at is null
     and (tg_op = 'INSERT' or not (old.closed and old.deleted_at is null)) then
    perform private.lock_month(new.store_id, new.month_start, true);
  end if;
  return new;
end
$$;

create trigger lock_month_for_closing before insert or update on public.month_closures
  for each row execute function private.lock_month_for_closing();
