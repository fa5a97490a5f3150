-- For the admin function (supabase/functions/admin-api), which has checked that p_by is an
-- admin whose session has the second factor it needs; no signed-in person may execute it.
create function public.set_admins_need_mfa(p_on boolean, p_by uuid) returns jsonb
language plpgsql volatile security invoker
set search_path = ''
as $$
begin
  if p_on is null then
    raise exception 'set_admins_need_mfa: true or false is needed' using errcode = '22023';
  end if;
  insert into private.security_settings (admins_need_mfa, updated_by) values (p_on, p_by)
  on conflict (id) do update set admins_need_mfa = excluded.admins_need_mfa, updated_by = excluded.updated_by;
  return public.security_settings();
end
$$;

revoke execute on function public.set_admins_need_mfa(boolean, uuid) from public, anon, authenticated;
grant execute on function public.set_admins_need_mfa(boolean, uuid) to service_role;
