-- The group's security settings, read as the caller (everyone signed in may): whether
-- every admin must use an authenticator app. The defaults when no row was ever written.
create function public.security_settings() returns jsonb
language sql stable security invoker
set search_path = ''
as $$
  select jsonb_build_object('admins_need_mfa', coalesce(s.admins_need_mfa, false), 'updated_at', s.updated_at)
  from (select 1) as one left join private.security_settings s on true
$$;

revoke execute on function public.security_settings() from public, anon;
grant execute on function public.security_settings() to authenticated, service_role;
