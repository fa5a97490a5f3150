-- The caller's store, for policies and clients: runs as the caller (security invoker) and
-- asks private.caller_store_id, which reads the account as its owner.
create or replace function public.get_user_store_id() returns uuid
language sql stable security invoker
set search_path = ''
as $$ select private.caller_store_id() $$;

revoke execute on function public.get_user_store_id() from public, anon;
grant execute on function public.get_user_store_id() to authenticated, service_role;
