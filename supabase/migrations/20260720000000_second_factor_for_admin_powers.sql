-- A second sign-in factor for the powers that can change everything (docs/security.md,
-- "Multi-factor sign-in"). A person who has verified an authenticator app (an MFA
-- factor) must have proven it in this session (the token's `aal` is aal2) before the
-- database lets them reopen a closed month, compare every store, add, change or delete a
-- store, or change the group's security settings; the admin edge function applies the
-- same rule to managing users. A stolen password alone then opens none of them. With the
-- group setting `admins_need_mfa`, an admin without any factor is refused too, and must
-- enrol one first. Ordinary work (figures, settings of one's own store) is unchanged.
--
-- Refusals are SQLSTATE 42501 with detail `insufficient_aal`, so a client can tell
-- "verify your code" from "you are not allowed".

-- The group's security settings: one row, kept out of the API's tables (every public
-- table is one the devices sync). Everyone signed in reads it through
-- public.security_settings() (the app sends an admin to enrol when it is on); only an
-- admin in an aal2 session changes it, through public.set_admins_need_mfa().
create table private.security_settings (
  id boolean primary key default true constraint security_settings_one_row check (id),
  admins_need_mfa boolean not null default false,
  updated_at timestamptz not null default now(),
  updated_by uuid
);

-- No row is written here: a backup carries the row, and restoring it after this migration
-- must not collide with one. Without a row, the settings are the defaults.

-- True when the session in this request has not proven the second factor its person
-- needs: one they have verified, or, for an admin while admins_need_mfa is on, any.
-- The database owner's own SQL and the service role (no signed-in user) need none.
create or replace function private.second_factor_missing() returns text
language sql stable security definer
set search_path = ''
as $$
  select case
    when auth.uid() is null or coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2' then null
    when exists (select 1 from auth.mfa_factors f where f.user_id = auth.uid() and f.status = 'verified') then 'verify'
    when public.is_user_admin() and coalesce((select s.admins_need_mfa from private.security_settings s), false) then 'enrol'
  end
$$;

revoke all on function private.second_factor_missing() from public;

-- Refuses the action named (a sentence's subject, e.g. 'Reopening a month') when the
-- session lacks the second factor, with a message a person can act on.
create or replace function private.require_second_factor(p_action text) returns void
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

-- Reopening a closed month (unclosing it, or retiring a closed month's row). Runs before
-- the closure's stamps (triggers fire in name order) and only for a request's session.
create or replace function private.reopening_needs_second_factor() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if nullif(current_setting('request.jwt.claims', true), '') is not null
     and old.closed and old.deleted_at is null and not (new.closed and new.deleted_at is null) then
    perform private.require_second_factor('Reopening a month');
  end if;
  return new;
end
$$;

create trigger reopening_needs_second_factor before update on public.month_closures
  for each row execute function private.reopening_needs_second_factor();

-- Adding, renaming or deleting a store (deleting one deletes its figures with it).
create or replace function private.store_change_needs_second_factor() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if nullif(current_setting('request.jwt.claims', true), '') is not null then
    perform private.require_second_factor('Changing stores');
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end
$$;

create trigger store_change_needs_second_factor before insert or update or delete on public.stores
  for each row execute function private.store_change_needs_second_factor();

-- Reading and changing the security settings.
create or replace function public.security_settings() returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select jsonb_build_object('admins_need_mfa', coalesce(s.admins_need_mfa, false), 'updated_at', s.updated_at)
  from (select 1) as one left join private.security_settings s on true
$$;

revoke execute on function public.security_settings() from public, anon;
grant execute on function public.security_settings() to authenticated, service_role;

create or replace function public.set_admins_need_mfa(p_on boolean) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
begin
  if auth.uid() is not null and not public.is_user_admin() then
    raise exception 'Only an administrator can change the security settings.' using errcode = '42501';
  end if;
  if p_on is null then
    raise exception 'set_admins_need_mfa: true or false is needed' using errcode = '22023';
  end if;
  perform private.require_second_factor('Changing the security settings');
  insert into private.security_settings (admins_need_mfa, updated_by) values (p_on, auth.uid())
  on conflict (id) do update set admins_need_mfa = excluded.admins_need_mfa, updated_at = now(), updated_by = excluded.updated_by;
  return public.security_settings();
end
$$;

revoke execute on function public.set_admins_need_mfa(boolean) from public, anon;
grant execute on function public.set_admins_need_mfa(boolean) to authenticated, service_role;

-- The store comparison reads every store: an admin needs the second factor for it too.
create or replace function public.store_comparison(p_month date)
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_month date := date_trunc('month', p_month)::date;
begin
  if not public.is_user_admin() then
    raise exception 'Only an administrator can compare stores.' using errcode = '42501';
  end if;
  perform private.require_second_factor('Comparing stores');
  if p_month is null or v_month < date '2000-01-01' or v_month > date '2100-12-01' then
    raise exception 'store_comparison: a month from 2000 to 2100 is needed' using errcode = '22023';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'store_id', s.id,
             'name', s.name,
             'month', private.store_month_rows(s.id, v_month),
             'last_year', private.store_month_rows(s.id, (v_month - interval '1 year')::date))
           order by s.name)
    from public.stores s
    where s.deleted_at is null), '[]'::jsonb);
end
$$;

revoke execute on function public.store_comparison(date) from public, anon;
grant execute on function public.store_comparison(date) to authenticated, service_role;
