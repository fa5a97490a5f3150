-- Adding, renaming or deleting a store (deleting one deletes its figures) needs the second factor.
create function private.store_change_needs_second_factor() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if nullif(current_setting('request.jwt.claims', true), '') is not null then
    perform private.require_second_factor('Changing stores');
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end
$$;

revoke all on function private.store_change_needs_second_factor() from public;
