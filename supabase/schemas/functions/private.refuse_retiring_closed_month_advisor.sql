-- Retiring an advisor (deleted_at) who has figures in a closed month is refused like a
-- change to the month itself (23M01): the device lists a month's advisors from the ones it
-- holds, so the closed month's team totals would lose that advisor's figures. Setting an
-- advisor inactive stays allowed.
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

revoke all on function private.refuse_retiring_closed_month_advisor() from public;
