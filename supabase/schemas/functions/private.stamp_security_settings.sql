-- The group's security settings are always the one row, stamped with the time of its change.
create function private.stamp_security_settings() returns trigger
language plpgsql security invoker
set search_path = ''
as $$
begin
  new.id := true;
  new.updated_at := now();
  return new;
end
$$;

revoke all on function private.stamp_security_settings() from public;
