-- The natural key of a synced table, or null for any other name.
create or replace function public.synced_table_key(p_table text) returns text[]
language sql stable security definer
set search_path = ''
as $$
  select t.key_columns from private.synced_tables t where t.name = p_table
$$;

revoke execute on function public.synced_table_key(text) from public, anon;
grant execute on function public.synced_table_key(text) to authenticated, service_role;
