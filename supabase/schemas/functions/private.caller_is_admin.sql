-- Whether the caller is an admin, from app_metadata in auth.users (as caller_store_id): a
-- revoked admin flag applies at once. public.is_user_admin is how policies call it.
create function private.caller_is_admin() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (select (u.raw_app_meta_data ->> 'is_admin') = 'true' from auth.users u where u.id = auth.uid()),
    false
  )
$$;

revoke all on function private.caller_is_admin() from public;
grant execute on function private.caller_is_admin() to authenticated, service_role;
