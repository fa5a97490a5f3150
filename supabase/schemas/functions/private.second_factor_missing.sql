-- Whether the caller's session lacks the second sign-in factor its person needs: 'verify'
-- (they have a verified authenticator and the session is not aal2), 'enrol' (an admin
-- without one while the group requires it), or null. docs/security.md, "Multi-factor
-- sign-in". Answers about the caller alone, so the change history's policy may ask it.
create function private.second_factor_missing() returns text
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if auth.uid() is null or coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2' then
    return null;
  end if;
  if exists (select 1 from auth.mfa_factors f where f.user_id = auth.uid() and f.status = 'verified') then
    return 'verify';
  end if;
  if private.caller_is_admin() and coalesce((select s.admins_need_mfa from private.security_settings s), false) then
    return 'enrol';
  end if;
  return null;
end
$$;

revoke all on function private.second_factor_missing() from public;
grant execute on function private.second_factor_missing() to authenticated;
