-- Two more ways a closed month changed without an admin reopening it.
--
-- * Deleting a closed month's closure: the service role (the only API caller with delete
--   rights on closures) could delete the row, and the month was open again with nobody
--   stamped as reopening it and nothing left to say it had been closed. A closed month's
--   closure is now deleted by nobody through the API: an admin reopens the month (which
--   stamps who and when), after which the row may go. The database owner's own SQL (a
--   restore) is not refused, as with the other guards. A store whose months are closed
--   cannot be deleted until they are reopened, as its closed figures already could not.
-- * Retiring an advisor (deleted_at) who has figures in a closed month: the device lists
--   a month's advisors from the advisors it holds, and a retired advisor leaves it, so the
--   closed month's team totals lost that advisor's figures. Retiring such an advisor is
--   refused like a change to the month itself (23M01 "month closed by NAME on DATE");
--   deleting one was refused already (the advisor's rows go with it, and those are
--   refused). Setting an advisor inactive is how an advisor leaves the team: it stays
--   allowed, and a month lists every advisor with figures in it, active or not.

create or replace function private.refuse_closed_closure_delete() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if nullif(current_setting('request.jwt.claims', true), '') is null then
    return old;
  end if;
  if old.closed and old.deleted_at is null then
    raise exception 'A closed month''s closure cannot be deleted: an administrator reopens the month.' using errcode = '42501';
  end if;
  return old;
end
$$;

create trigger refuse_closed_closure_delete before delete on public.month_closures
  for each row execute function private.refuse_closed_closure_delete();

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

create or replace function private.refuse_retiring_closed_month_advisor() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_month date;
  v_name text;
  v_at timestamptz;
begin
  if nullif(current_setting('request.jwt.claims', true), '') is null then
    return new;
  end if;
  if old.deleted_at is null and new.deleted_at is not null then
    v_month := private.advisor_closed_month(old.store_id, old.id);
    if v_month is not null then
      select c.closed_by_name, c.closed_at into v_name, v_at
        from public.month_closures c where c.store_id = old.store_id and c.month_start = v_month;
      raise exception 'month closed by % on %', coalesce(v_name, 'an administrator'), to_char(v_at, 'YYYY-MM-DD')
        using errcode = '23M01',
              hint = 'The advisor has figures in a closed month: set the advisor inactive instead, or an administrator can reopen the month.';
    end if;
  end if;
  return new;
end
$$;

create trigger refuse_retiring_closed_month_advisor before update on public.front_end_team_advisors
  for each row execute function private.refuse_retiring_closed_month_advisor();
