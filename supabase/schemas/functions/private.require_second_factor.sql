-- Refuses the action named (a sentence's subject, e.g. 'Reopening a month') when the
-- session lacks the second factor, with SQLSTATE 42501, detail insufficient_aal and a
-- message a person can act on. Called only by owner-run functions and triggers.
create function private.require_second_factor(p_action text) returns void
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_missing text := private.second_factor_missing();
begin
  if v_missing = 'verify' then
    raise exception using errcode = '42501', detail = 'insufficient_aal',
      message = p_action || ' needs the code from your authenticator app: this session was signed in with the password alone.',
      hint = 'Enter the code from your authenticator app (or sign out and sign in again with it), then try again.';
  elsif v_missing = 'enrol' then
    raise exception using errcode = '42501', detail = 'insufficient_aal',
      message = p_action || ' needs an authenticator app: administrators must set one up first.',
      hint = 'Set up an authenticator app in Settings, Authenticator, then try again.';
  end if;
end
$$;

revoke all on function private.require_second_factor(text) from public;
