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

revoke all on function private.lock_month_for_closing() from public;
