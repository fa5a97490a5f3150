-- Reopening a closed month (unclosing it, or retiring a closed month's row) needs the
-- second factor; only a request's session is asked.
create function private.reopening_needs_second_factor() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if nullif(current_setting('request.jwt.claims', true), '') is not null
     and old.closed and old.deleted_at is null and not (new.closed and new.deleted_at is null) then
    perform private.require_second_factor('Reopening a month');
  end if;
  return new;
end
$$;

revoke all on function private.reopening_needs_second_factor() from public;
