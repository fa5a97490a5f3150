-- The caller's store, read from the authoritative app_metadata (written only by the service
-- role), never from user_metadata, which any signed-in user can change about themselves.
-- Read from auth.users rather than the JWT so a store reassignment applies at once, not at
-- token refresh. Security definer (the API roles cannot read auth.users), so it lives in
-- private, which the API does not serve; public.get_user_store_id is how policies call it.
create function private.caller_store_id() returns uuid
language sql stable security definer
set search_path = ''
as $$
  select case
    when (u.raw_app_meta_data ->> 'store_id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      then (u.raw_app_meta_data ->> 'store_id')::uuid
  end
  from auth.users u
  where u.id = auth.uid()
$$;

revoke all on function private.caller_store_id() from public;
grant execute on function private.caller_store_id() to authenticated, service_role;
