-- Stamps who closed or reopened a month, and the work week and Work Mix target it was
-- first closed with, from the session and the database; a client's values for these are
-- dropped on every path. Only an admin reopens. A closure is closed while `closed` and not
-- retired; retiring a closed month's row is reopening it. A month reopened and closed
-- again keeps the settings it was first closed with (docs/figures.md).
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

revoke all on function private.stamp_month_closure() from public;
