-- Whether the caller is an admin, for policies and clients: runs as the caller and asks
-- private.caller_is_admin.
create or replace function public.is_user_admin() returns boolean
language sql stable security invoker
set search_path = ''
as $$ select private.caller_is_admin() $$;

revoke execute on function public.is_user_admin() from public, anon;
grant execute on function public.is_user_admin() to authenticated, service_role;
