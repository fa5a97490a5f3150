-- What a hosted Supabase project already has before the first migration runs:
-- the API roles, the auth schema with its helpers, the extensions schema and the
-- realtime publication. The embedded stack and the database tests run this once on an
-- empty database; it is never pushed to a hosted project. Idempotent, because roles
-- are shared by every database of a PostgreSQL cluster.

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  -- Hosted Supabase's own administrator role; its API tokens are accepted as there
  -- (supabase/local/rest/rest-service.ts). Only the JWT secret's holder can sign one.
  if not exists (select 1 from pg_roles where rolname = 'supabase_admin') then
    create role supabase_admin nologin noinherit superuser bypassrls;
  end if;
end
$$;

create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;
grant usage on schema extensions to anon, authenticated, service_role;

grant usage on schema public to anon, authenticated, service_role;
-- Hosted Supabase grants every API role all privileges on new tables; migrations then
-- narrow them. Mirror that here so a migration that forgets to revoke fails locally too.
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant execute on functions to anon, authenticated, service_role;

create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key default gen_random_uuid(),
  aud varchar(255) default 'authenticated',
  role varchar(255) default 'authenticated',
  email varchar(255) unique,
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255) default '',
  confirmation_sent_at timestamptz,
  recovery_token varchar(255) default '',
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255) default '',
  email_change varchar(255) default '',
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb not null default '{}'::jsonb,
  raw_user_meta_data jsonb not null default '{}'::jsonb,
  is_super_admin boolean,
  phone text,
  phone_confirmed_at timestamptz,
  banned_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);

create table if not exists auth.identities (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  email text generated always as (lower(identity_data ->> 'email')) stored,
  unique (provider_id, provider)
);

create table if not exists auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  aal text not null default 'aal1'
);

-- Refresh tokens rotate: each use revokes the token and issues its child. A revoked token
-- presented again within the reuse interval yields the session's current token; later,
-- it means it leaked, so the whole session is ended (supabase/local/auth/sessions.ts).
create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token text not null unique,
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  parent text,
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Columns of hosted Auth's users table added after the first release of this file, for
-- e-mail change with confirmation from both addresses (supabase/local/auth).
alter table auth.users add column if not exists email_change_token_current varchar(255) default '';
alter table auth.users add column if not exists email_change_confirm_status smallint default 0;
alter table auth.users add column if not exists email_change_sent_at timestamptz;

-- Found on every refresh (the session's current token) and on every sign-out everywhere.
-- Created here rather than with the tables so an existing data folder gains them too.
create index if not exists refresh_tokens_session_id_idx on auth.refresh_tokens (session_id, id);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);

-- Multi-factor authentication, as hosted Auth keeps it (supabase/local/auth/mfa.ts): a
-- user's factors (a TOTP secret each; unverified until a first code is confirmed), the
-- challenges issued for them (single use, tied to the client address, five minutes), and
-- the methods each session was proven with (its `amr`; a factor's makes it aal2). The
-- session remembers the factor that raised it, so removing that factor lowers it again.
do $$
begin
  create type auth.factor_type as enum ('totp', 'webauthn', 'phone');
exception when duplicate_object then null;
end
$$;

do $$
begin
  create type auth.factor_status as enum ('unverified', 'verified');
exception when duplicate_object then null;
end
$$;

create table if not exists auth.mfa_factors (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type auth.factor_type not null,
  status auth.factor_status not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  secret text,
  phone text unique default null,
  last_challenged_at timestamptz
);
create unique index if not exists mfa_factors_user_friendly_name_unique on auth.mfa_factors (friendly_name, user_id)
  where trim(friendly_name) <> '';
create index if not exists factor_id_created_at_idx on auth.mfa_factors (user_id, created_at);

create table if not exists auth.mfa_challenges (
  id uuid primary key default gen_random_uuid(),
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null default now(),
  verified_at timestamptz,
  ip_address inet not null,
  otp_code text
);
create index if not exists mfa_challenge_created_at_idx on auth.mfa_challenges (created_at desc);

create table if not exists auth.mfa_amr_claims (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  authentication_method text not null,
  constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
);

alter table auth.sessions add column if not exists factor_id uuid;

-- Security keys and passkeys (WebAuthn factors), in GoTrue's columns
-- (supabase/local/auth/mfa-webauthn.ts): a verified factor's credential (its id, COSE
-- public key, signature counter and flags) and its authenticator model (AAGUID); a
-- challenge's ceremony state (the random challenge, relying party and user handle). One
-- credential belongs to one factor: the index refuses registering it twice.
alter table auth.mfa_factors add column if not exists web_authn_credential jsonb;
alter table auth.mfa_factors add column if not exists web_authn_aaguid uuid;
alter table auth.mfa_challenges add column if not exists web_authn_session_data jsonb;
create unique index if not exists mfa_factors_web_authn_credential_id_unique
  on auth.mfa_factors ((web_authn_credential ->> 'id')) where web_authn_credential is not null;

-- The JWT helpers PostgREST-backed policies call; same bodies as hosted Supabase.
create or replace function auth.jwt() returns jsonb
language sql stable
as $$ select nullif(current_setting('request.jwt.claims', true), '')::jsonb $$;

create or replace function auth.uid() returns uuid
language sql stable
as $$ select (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')::uuid $$;

create or replace function auth.role() returns text
language sql stable
as $$ select nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role' $$;

create or replace function auth.email() returns text
language sql stable
as $$ select nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email' $$;

grant execute on function auth.jwt(), auth.uid(), auth.role(), auth.email()
  to anon, authenticated, service_role;

do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;
