-- A client's typed time, or null when it is not one: an unreadable time never blocks the
-- change itself.
create or replace function private.typed_time(p_value text) returns timestamptz
language plpgsql stable
set search_path = ''
as $$
begin
  return p_value::timestamptz;
exception when others then
  return null;
end
$$;

revoke all on function private.typed_time(text) from public;
