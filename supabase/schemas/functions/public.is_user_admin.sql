-- Whether the caller is an admin, from app_metadata in auth.users (as get_user_store_id):
-- a revoked admin flag applies at once.
create or replace function public.is_user_admin() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (select (u.raw_app_meta_data ->> 'is_admin') = 'true' from auth.users u where u.id = auth.uid()),
    false
  )
$$;

revoke execute on function public.is_user_admin() from public, anon;
grant execute on function public.is_user_admin() to authenticated, service_role;
