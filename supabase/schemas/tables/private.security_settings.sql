-- The group's security settings: one row (none until first changed: then the defaults).
-- Kept out of the API's tables; everyone signed in reads it through
-- public.security_settings(), and only the admin function changes it, through
-- public.set_admins_need_mfa with the service role. docs/security.md, "Multi-factor sign-in".
create table private.security_settings (
  id boolean primary key default true constraint security_settings_one_row check (id),
  admins_need_mfa boolean not null default false,
  updated_at timestamptz not null default now(),
  updated_by uuid
);

alter table private.security_settings enable row level security;
create policy "Signed-in people read the security settings" on private.security_settings
  for select to authenticated using (true);
revoke all on private.security_settings from public, anon, authenticated;
grant select on private.security_settings to authenticated;
grant select, insert, update on private.security_settings to service_role;

-- Always the one row, stamped with the time of its change.
create trigger stamp_security_settings before insert or update on private.security_settings
  for each row execute function private.stamp_security_settings();
