-- The natural key of a synced table, or null for any other name: how the sync functions and
-- the triggers look a table up. It reads private.synced_tables as its owner, so no API role
-- needs a grant on the registry itself.
create function private.synced_table_key(p_table text) returns text[]
language sql stable security definer
set search_path = ''
as $$
  select t.key_columns from private.synced_tables t where t.name = p_table
$$;

revoke all on function private.synced_table_key(text) from public;
grant execute on function private.synced_table_key(text) to authenticated, service_role;
