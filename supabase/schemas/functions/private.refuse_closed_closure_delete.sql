-- A closed month's closure is deleted by nobody through the API: an admin reopens the
-- month (which stamps who and when), after which the row may go. The database owner's own
-- SQL (a restore) is not refused.
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

revoke all on function private.refuse_closed_closure_delete() from public;
