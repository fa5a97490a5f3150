-- A second sign-in factor for the powers that can change everything (docs/security.md,
-- "Multi-factor sign-in"). A person who has verified an authenticator app (an MFA
-- factor) must have proven it in this session (the token's `aal` is aal2) before the
-- database lets them reopen a closed month, compare every store or read another store's
-- change history, or add, change or delete a store; the admin edge function applies the
-- same rule to managing users and to the group's security setting. A stolen password alone then opens none of them. With the
-- group setting `admins_need_mfa`, an admin without any factor is refused too, and must
-- enrol one first. Ordinary work (figures, settings of one's own store) is unchanged.
--
-- Refusals are SQLSTATE 42501 with detail `insufficient_aal`, so a client can tell
-- "verify your code" from "you are not allowed".

-- The group's security settings: one row, kept out of the API's tables (every public
-- table is one the devices sync). Everyone signed in reads it through
-- public.security_settings(), as the caller (the app sends an admin to enrol when it is
-- on). Only the admin function changes it (public.set_admins_need_mfa, the service
-- role's alone), for an admin whose session has the second factor it needs: no function
-- a signed-in person may call writes it.
create table private.security_settings (
  id boolean primary key default true constraint security_settings_one_row check (id),
  admins_need_mfa boolean not null default false,
  updated_at timestamptz not null default now(),
  updated_by uuid
);

-- No row is written here: a backup carries the row, and restoring it after this migration
-- must not collide with one. Without a row, the settings are the defaults.

alter table private.security_settings enable row level security;
create policy "Signed-in people read the security settings" on private.security_settings
  for select to authenticated using (true);
revoke all on private.security_settings from public, anon, authenticated;
grant select on private.security_settings to authenticated;
grant select, insert, update on private.security_settings to service_role;

-- True when the session in this request has not proven the second factor its person
-- needs: one they have verified ('verify'), or, for an admin while admins_need_mfa is on,
-- any ('enrol'). The database owner's own SQL and the service role (no signed-in user)
-- need none. Reached only from the owner-run functions below, never by a client.
create or replace function private.second_factor_missing() returns text
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
-- The history policy below asks it as the caller; it answers about the caller alone.
grant execute on function private.second_factor_missing() to authenticated;

-- Another store's change history is a read of every store, as the comparison is: an
-- admin's own store's history stays readable at aal1, another store's needs the factor.
create policy "Another store's history needs the second factor" on audit.change_history
  as restrictive for select to authenticated
  using (store_id = (select public.get_user_store_id()) or (select private.second_factor_missing()) is null);

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

revoke all on function private.reopening_needs_second_factor() from public;

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

revoke all on function private.store_change_needs_second_factor() from public;

create trigger store_change_needs_second_factor before insert or update or delete on public.stores
  for each row execute function private.store_change_needs_second_factor();

-- The row is always the one row, stamped with the time of its change.
create or replace function private.stamp_security_settings() returns trigger
language plpgsql security invoker
set search_path = ''
as $$
begin
  new.id := true;
  new.updated_at := now();
  return new;
end
$$;

revoke all on function private.stamp_security_settings() from public;

create trigger stamp_security_settings before insert or update on private.security_settings
  for each row execute function private.stamp_security_settings();

create or replace function public.security_settings() returns jsonb
language sql stable security invoker
set search_path = ''
as $$
  select jsonb_build_object('admins_need_mfa', coalesce(s.admins_need_mfa, false), 'updated_at', s.updated_at)
  from (select 1) as one left join private.security_settings s on true
$$;

revoke execute on function public.security_settings() from public, anon;
grant execute on function public.security_settings() to authenticated, service_role;

-- For the admin function (supabase/functions/admin-api), which has checked that `p_by`
-- is an admin whose session has the second factor it needs.
create or replace function public.set_admins_need_mfa(p_on boolean, p_by uuid) returns jsonb
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

-- The store comparison reads every store's figures through private.store_month_rows,
-- which already refuses anyone but an admin; it now also wants the second factor. Its
-- query is the one of 20260710000000_privileged_functions_outside_the_api.sql.
create or replace function private.store_month_rows(p_store uuid, p_month date) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not private.caller_is_admin() then
    raise exception 'Only an administrator can compare stores.' using errcode = '42501';
  end if;
  perform private.require_second_factor('Comparing stores');
  return jsonb_build_object(
    'daily', coalesce((select jsonb_agg(to_jsonb(d) - 'sync_xid') from public.daily_inputs d
                       where d.store_id = p_store and d.deleted_at is null
                         and d.entry_date >= p_month and d.entry_date < (p_month + interval '1 month')::date), '[]'),
    'weeks', coalesce((select jsonb_agg(to_jsonb(w) - 'sync_xid') from public.weekly_store_performance w
                       where w.store_id = p_store and w.deleted_at is null
                         and w.week_start_date >= p_month and w.week_start_date < (p_month + interval '1 month')::date), '[]'),
    'targets', coalesce((select jsonb_agg(to_jsonb(t) - 'sync_xid') from public.monthly_targets t
                         where t.store_id = p_store and t.deleted_at is null
                           and t.year = extract(year from p_month)::integer and t.month = extract(month from p_month)::integer), '[]'),
    'settings', (select (to_jsonb(s) - 'sync_xid') || coalesce((
                          select jsonb_build_object('work_week', c.work_week, 'mix_target_cp', c.mix_target_cp,
                                                    'mix_target_w', c.mix_target_w, 'mix_target_i', c.mix_target_i)
                          from public.month_closures c
                          where c.store_id = p_store and c.month_start = p_month and c.deleted_at is null
                            and c.work_week is not null), '{}'::jsonb)
                 from public.store_settings s where s.store_id = p_store and s.deleted_at is null),
    'calendar', coalesce((select jsonb_agg(to_jsonb(c) - 'sync_xid') from public.store_calendar_days c
                          where c.store_id = p_store and c.deleted_at is null
                            and c.calendar_date >= p_month and c.calendar_date < (p_month + interval '1 month')::date), '[]'),
    'labor_gross', coalesce((select jsonb_agg(to_jsonb(l) - 'sync_xid') from public.monthly_labor_gross_inputs l
                             where l.store_id = p_store and l.deleted_at is null and l.month_year = p_month), '[]'),
    'operational', (select to_jsonb(o) - 'sync_xid' from public.monthly_operational_inputs o
                    where o.store_id = p_store and o.deleted_at is null
                      and o.year = extract(year from p_month)::integer and o.month = extract(month from p_month)::integer));
end
$$;

revoke execute on function private.store_month_rows(uuid, date) from public;
grant execute on function private.store_month_rows(uuid, date) to authenticated, service_role;
