-- The name a closure or a history row shows: the display name an admin gave the person,
-- else the first and last name, else the e-mail address.
create or replace function private.person_name(p_user uuid) returns text
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    nullif(trim(u.raw_app_meta_data ->> 'displayName'), ''),
    nullif(trim(concat_ws(' ', nullif(trim(u.raw_app_meta_data ->> 'firstName'), ''), nullif(trim(u.raw_app_meta_data ->> 'lastName'), ''))), ''),
    u.email,
    'an administrator')
  from auth.users u where u.id = p_user
$$;

revoke all on function private.person_name(uuid) from public;
