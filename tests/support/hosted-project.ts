/**
 * A PostgreSQL database prepared as a hosted Supabase project is before our migrations:
 * Supabase Auth's `auth.users`, `auth.identities` and `auth.mfa_factors` with exactly
 * GoTrue's columns, owned by Auth's own role with row-level security on; the API roles;
 * `auth.uid()`, `auth.role()`, `auth.email()` and `auth.jwt()` as GoTrue defines them; the
 * realtime publication; and a `postgres`-like role that is no superuser (hosted Supabase
 * demotes `postgres`: NOSUPERUSER, BYPASSRLS, all rights on Auth's tables, owner of what
 * `supabase db push` creates). `pushMigrations` then applies supabase/migrations as that
 * role, as `supabase db push` does, recording each in supabase_migrations.schema_migrations.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { openPostgresDatabase } from '../../supabase/local/db/postgres-database.ts';
import { applyMigrations } from '../../supabase/local/db/migrate.ts';

/**
 * Supabase Auth's tables as a hosted project has them: the end state of GoTrue's
 * migrations (github.com/supabase/auth, migrations/), each column with the migration
 * that gave it its present name and type.
 */
export const gotrueUsersColumns = [
  // 00_init_auth_schema
  'instance_id uuid',
  'id uuid not null primary key',
  'aud varchar(255)',
  'role varchar(255)',
  'email varchar(255)',
  'encrypted_password varchar(255)',
  'invited_at timestamptz',
  'confirmation_token varchar(255)',
  'confirmation_sent_at timestamptz',
  'recovery_token varchar(255)',
  'recovery_sent_at timestamptz',
  'email_change varchar(255)',
  'email_change_sent_at timestamptz',
  'last_sign_in_at timestamptz',
  'raw_app_meta_data jsonb',
  'raw_user_meta_data jsonb',
  'is_super_admin boolean',
  'created_at timestamptz',
  'updated_at timestamptz',
  // 00_init_auth_schema's confirmed_at, renamed by 20210710035447_alter_users
  'email_confirmed_at timestamptz',
  // 20210710035447_alter_users; phone and phone_change made text by 20230116124310_alter_phone_type
  'phone text unique default null',
  'phone_confirmed_at timestamptz',
  "phone_change text default ''",
  "phone_change_token varchar(255) default ''",
  'phone_change_sent_at timestamptz',
  // 20210722035447_adds_confirmed_at
  'confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored',
  // 20210730183235_add_email_change_confirmed; email_change_token_new is 00_init's email_change_token renamed there
  "email_change_token_current varchar(255) default ''",
  'email_change_confirm_status smallint default 0 check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2)',
  'email_change_token_new varchar(255)',
  // 20220114185340_add_banned_until
  'banned_until timestamptz',
  // 20220323170000_add_user_reauthentication
  "reauthentication_token varchar(255) default ''",
  'reauthentication_sent_at timestamptz',
  // 20221215195500_modify_users_email_unique_index
  'is_sso_user boolean not null default false',
  // 20230116124412_add_deleted_at
  'deleted_at timestamptz',
  // 20240214120130_add_is_anonymous_column
  'is_anonymous boolean not null default false',
] as const;

/** Indexes GoTrue's migrations put on auth.users (20220429102000_add_unique_idx, 20221215195500). */
const gotrueUsersIndexes = [
  "create unique index confirmation_token_idx on auth.users (confirmation_token) where confirmation_token !~ '^[0-9 ]*$'",
  "create unique index recovery_token_idx on auth.users (recovery_token) where recovery_token !~ '^[0-9 ]*$'",
  "create unique index email_change_token_current_idx on auth.users (email_change_token_current) where email_change_token_current !~ '^[0-9 ]*$'",
  "create unique index email_change_token_new_idx on auth.users (email_change_token_new) where email_change_token_new !~ '^[0-9 ]*$'",
  "create unique index reauthentication_token_idx on auth.users (reauthentication_token) where reauthentication_token !~ '^[0-9 ]*$'",
  'create unique index users_email_partial_key on auth.users (email) where (is_sso_user = false)',
];

export const gotrueIdentitiesColumns = [
  // 20210909172000_create_identities_table; its id renamed provider_id by 20231117164230_add_id_pkey_identities
  'provider_id text not null',
  'user_id uuid not null references auth.users (id) on delete cascade',
  'identity_data jsonb not null',
  'provider text not null',
  'last_sign_in_at timestamptz',
  'created_at timestamptz',
  'updated_at timestamptz',
  // 20221215195800_add_identities_email_column
  "email text generated always as (lower(identity_data ->> 'email')) stored",
  // 20231117164230_add_id_pkey_identities
  'id uuid default gen_random_uuid() primary key',
  'constraint identities_provider_id_provider_unique unique (provider_id, provider)',
] as const;

export const gotrueFactorsColumns = [
  // 20221003041349_add_mfa_schema (factor_type gains 'phone' in 20240729123726_add_mfa_phone_config)
  'id uuid not null primary key',
  'user_id uuid not null references auth.users (id) on delete cascade',
  'friendly_name text',
  'factor_type auth.factor_type not null',
  'status auth.factor_status not null',
  'created_at timestamptz not null',
  'updated_at timestamptz not null',
  'secret text',
  // 20240729123726_add_mfa_phone_config (its unique constraint dropped by 20240806073726)
  'phone text default null',
  // 20240802193726_add_mfa_factors_column_last_challenged_at
  'last_challenged_at timestamptz unique default null',
  // 20241009103726_add_web_authn
  'web_authn_credential jsonb',
  'web_authn_aaguid uuid',
  // 20250925093508_add_last_webauthn_challenge_data
  'last_webauthn_challenge_data jsonb',
] as const;

/** The columns' names alone, as a hosted project lists them. */
export const columnNames = (columns: readonly string[]) => columns.filter((c) => !c.startsWith('constraint ')).map((c) => c.split(' ')[0] as string);

/**
 * GoTrue's User model (internal/models/user.go) reads these columns into plain Go strings
 * and numbers, which fail on NULL: an account with NULL there cannot sign in.
 */
export const gotrueNotNullUserColumns = [
  'instance_id', 'aud', 'role', 'confirmation_token', 'recovery_token', 'email_change_token_current', 'email_change_token_new',
  'email_change', 'email_change_confirm_status', 'phone_change_token', 'phone_change', 'reauthentication_token',
  'raw_app_meta_data', 'raw_user_meta_data', 'created_at', 'updated_at', 'is_sso_user', 'is_anonymous',
] as const;

const authFunctions = `
-- 20220224000811_update_auth_functions
create or replace function auth.uid() returns uuid language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;
create or replace function auth.role() returns text language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;
create or replace function auth.email() returns text language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;
-- 20220531120530_add_auth_jwt_function
create or replace function auth.jwt() returns jsonb language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;`;

export type HostedProject = {
  /** Connection as the project's `postgres`-like role (what `psql "$SUPABASE_DB_URL"` is). */
  url: string;
  /** Connection as a superuser, for the test's own reads. */
  adminUrl: string;
  role: string;
  pushMigrations(): Promise<string[]>;
  drop(): Promise<void>;
};

/** Roles are shared by the cluster's databases: create one unless another test just did. */
async function ensureRole(client: pg.Client, name: string, attributes: string): Promise<void> {
  const { rowCount } = await client.query('select 1 from pg_roles where rolname = $1', [name]);
  if (rowCount) return;
  await client.query(`create role ${name} ${attributes}`).catch((error: { code?: string }) => {
    if (error.code !== '42710' && error.code !== '23505') throw error;
  });
}

export async function createHostedProject(serverUrl: string): Promise<HostedProject> {
  const suffix = randomUUID().replaceAll('-', '').slice(0, 16);
  const name = `hosted_${suffix}`;
  const role = `hosted_postgres_${suffix}`;
  const password = randomBytes(12).toString('hex');
  const server = new pg.Client({ connectionString: serverUrl });
  await server.connect();
  try {
    for (const api of ['anon', 'authenticated']) await ensureRole(server, api, 'nologin noinherit');
    await ensureRole(server, 'service_role', 'nologin noinherit bypassrls');
    await ensureRole(server, 'supabase_auth_admin', 'nologin noinherit');
    await server.query(`create role ${role} login password '${password}' nosuperuser nocreaterole bypassrls`);
    await server.query(`create database ${name} owner ${role}`);
  } finally {
    await server.end();
  }
  const at = (user: string | null, secret?: string) => {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    if (user) {
      url.username = user;
      url.password = secret ?? '';
    }
    return url.toString();
  };
  const adminUrl = at(null);
  const url = at(role, password);

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`
      create schema extensions;
      create extension pgcrypto with schema extensions;
      grant usage on schema extensions to anon, authenticated, service_role, ${role};
      grant usage on schema public to anon, authenticated, service_role;
      alter default privileges for role ${role} in schema public grant all on tables to anon, authenticated, service_role;
      alter default privileges for role ${role} in schema public grant all on sequences to anon, authenticated, service_role;
      alter default privileges for role ${role} in schema public grant execute on functions to anon, authenticated, service_role;
      create publication supabase_realtime;
      alter publication supabase_realtime owner to ${role};

      create schema auth authorization supabase_auth_admin;
      create type auth.factor_type as enum ('totp', 'webauthn', 'phone');
      create type auth.factor_status as enum ('unverified', 'verified');
      create table auth.users (${gotrueUsersColumns.join(', ')});
      ${gotrueUsersIndexes.join(';\n')};
      create table auth.identities (${gotrueIdentitiesColumns.join(', ')});
      create table auth.mfa_factors (${gotrueFactorsColumns.join(', ')});
      create unique index mfa_factors_user_friendly_name_unique on auth.mfa_factors (friendly_name, user_id) where trim(friendly_name) <> '';
      ${authFunctions}
      alter table auth.users enable row level security;
      alter table auth.identities enable row level security;
      alter table auth.mfa_factors enable row level security;
      alter table auth.users owner to supabase_auth_admin;
      alter table auth.identities owner to supabase_auth_admin;
      alter table auth.mfa_factors owner to supabase_auth_admin;
      alter function auth.uid() owner to supabase_auth_admin;
      alter function auth.role() owner to supabase_auth_admin;
      alter function auth.email() owner to supabase_auth_admin;
      alter function auth.jwt() owner to supabase_auth_admin;
      grant usage on schema auth to anon, authenticated, service_role, ${role};
      grant all on all tables in schema auth to ${role};
    `);
  } finally {
    await admin.end();
  }

  return {
    url,
    adminUrl,
    role,
    async pushMigrations() {
      const db = await openPostgresDatabase(url);
      try {
        return await applyMigrations(db);
      } finally {
        await db.close();
      }
    },
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.query(`drop role if exists ${role}`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
