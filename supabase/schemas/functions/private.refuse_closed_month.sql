-- Refuses a change to a closed month's figures, judging the row as it was and as it would
-- be: SQLSTATE 23M01 "month closed by NAME on DATE". It first takes the month's lock
-- (shared; private.lock_month) so a write in flight and a closing are ordered: the lookup
-- then sees a closing that committed while it waited. The database owner's own SQL (a
-- restore, migrations) is not a person's edit and is not refused.
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

revoke all on function private.refuse_closed_month() from public;
