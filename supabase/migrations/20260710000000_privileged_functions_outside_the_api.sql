-- The API (PostgREST's /rest/v1/rpc, and GraphQL where it runs) serves every function of
-- the public schema that a role may execute. A function there that runs as its owner
-- (security definer) skips row-level security for whoever calls it, which is why a
-- hosted project's Security Advisor warns about each one. From here on:
--
-- * The functions clients call (get_user_store_id, is_user_admin, store_comparison,
--   store_deletion_impact) stay in public but run as the caller (security invoker).
-- * What they cannot do as the caller lives in private, which the API does not serve:
--   reading the caller's own account in auth.users (so that a new store or a revoked
--   admin flag applies at the next request, not at the next token refresh) and an
--   admin's reads across every store. Each of those functions checks the caller itself.
-- * Helpers no client calls (the synced-table registry's lookups) leave public.
--
-- docs/security.md, "Database advisors", keeps the linter's findings before and after.

-- The API roles reach private's functions only from within the public ones and the
-- policies: usage on the schema, and execute only where granted below. A new function
-- is executable by everyone unless revoked, so every existing one is revoked here.
grant usage on schema private to authenticated, service_role;
revoke execute on all functions in schema private from public;

-- The caller's store and admin flag, from app_metadata (which only the service role
-- writes), as 20260101000000_access_helpers.sql read them.
create function private.caller_store_id() returns uuid
language sql stable security definer
set search_path = ''
as $$
  select case
    when (u.raw_app_meta_data ->> 'store_id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      then (u.raw_app_meta_data ->> 'store_id')::uuid
  end
  from auth.users u
  where u.id = auth.uid()
$$;

create function private.caller_is_admin() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (select (u.raw_app_meta_data ->> 'is_admin') = 'true' from auth.users u where u.id = auth.uid()),
    false
  )
$$;

revoke execute on function private.caller_store_id(), private.caller_is_admin() from public;
grant execute on function private.caller_store_id(), private.caller_is_admin() to authenticated, service_role;

-- Same names, same answers: every policy keeps calling these.
create or replace function public.get_user_store_id() returns uuid
language sql stable security invoker
set search_path = ''
as $$ select private.caller_store_id() $$;

create or replace function public.is_user_admin() returns boolean
language sql stable security invoker
set search_path = ''
as $$ select private.caller_is_admin() $$;


-- Store comparison. The list of stores is read as the caller: the stores' policy lets an
-- admin read every store and a member only their own. A store's figures are read by
-- private.store_month_rows, as its owner, because the figures' policies let a person read
-- their own store's rows only; widening those policies to admins would also send every
-- store's figures to an admin's device, since the sync reads whatever row-level security
-- lets through. So store_month_rows refuses anyone but an admin itself. Its query is the
-- one of 20260703000100_closure_keeps_settings_when_reopened.sql.
create or replace function private.store_month_rows(p_store uuid, p_month date) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not private.caller_is_admin() then
    raise exception 'Only an administrator can compare stores.' using errcode = '42501';
  end if;
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

create or replace function public.store_comparison(p_month date)
returns jsonb
language plpgsql stable security invoker
set search_path = ''
as $$
declare
  v_month date := date_trunc('month', p_month)::date;
begin
  if not public.is_user_admin() then
    raise exception 'Only an administrator can compare stores.' using errcode = '42501';
  end if;
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


-- What deleting a store takes with it. Whether the store exists is read as the caller
-- (the stores' policy); the accounts assigned to it (auth.users) and its rows in every
-- table that cascades from it are counted by private.store_deletion_counts as its owner,
-- which refuses anyone but an admin itself. The counting is that of
-- 20260704000000_store_deletion_impact.sql.
create function private.store_deletion_counts(p_store uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_table record;
  v_count bigint;
  v_rows jsonb := '{}'::jsonb;
  v_users bigint;
begin
  if not private.caller_is_admin() then
    raise exception 'Only an administrator can delete stores.' using errcode = '42501';
  end if;
  select count(*) into v_users from auth.users u where u.raw_app_meta_data ->> 'store_id' = p_store::text;
  for v_table in
    select c.relname as name,
           exists (select 1 from pg_catalog.pg_attribute a
                   where a.attrelid = c.oid and a.attname = 'deleted_at' and not a.attisdropped) as soft_deleted
    from pg_catalog.pg_constraint f
    join pg_catalog.pg_class c on c.oid = f.conrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_attribute k on k.attrelid = f.conrelid and k.attnum = f.conkey[1]
    where f.contype = 'f' and f.confrelid = 'public.stores'::regclass and f.confdeltype = 'c'
      and n.nspname = 'public' and k.attname = 'store_id' and cardinality(f.conkey) = 1
    order by c.relname
  loop
    execute format('select count(*) from public.%I where store_id = $1%s', v_table.name,
                   case when v_table.soft_deleted then ' and deleted_at is null' else '' end)
      into v_count using p_store;
    if v_count > 0 then
      v_rows := v_rows || jsonb_build_object(v_table.name, v_count);
    end if;
  end loop;
  return jsonb_build_object('users', v_users, 'rows', v_rows);
end
$$;

revoke execute on function private.store_deletion_counts(uuid) from public;
grant execute on function private.store_deletion_counts(uuid) to authenticated, service_role;

create or replace function public.store_deletion_impact(p_store uuid)
returns jsonb
language plpgsql stable security invoker
set search_path = ''
as $$
begin
  if not public.is_user_admin() then
    raise exception 'Only an administrator can delete stores.' using errcode = '42501';
  end if;
  if p_store is null then
    raise exception 'store_deletion_impact: a store id is needed' using errcode = '22023';
  end if;
  return jsonb_build_object(
    'exists', exists (select 1 from public.stores s where s.id = p_store and s.deleted_at is null))
    || private.store_deletion_counts(p_store);
end
$$;


-- The synced-table registry's lookups, which only the sync functions and triggers call.
-- synced_table_key reads private.synced_tables as its owner, so no API role needs a grant
-- on the registry itself.
create function private.synced_table_key(p_table text) returns text[]
language sql stable security definer
set search_path = ''
as $$
  select t.key_columns from private.synced_tables t where t.name = p_table
$$;

create function private.synced_table_year_column(p_table text) returns text
language sql stable security invoker
set search_path = ''
as $$
  select a.attname::text
  from pg_catalog.pg_attribute a
  where a.attrelid = pg_catalog.to_regclass(pg_catalog.format('public.%I', p_table))
    and a.attname in ('year', 'month_year')
    and a.attnum > 0 and not a.attisdropped
  order by a.attname = 'year' desc
  limit 1
$$;

revoke execute on function private.synced_table_key(text), private.synced_table_year_column(text) from public;
grant execute on function private.synced_table_key(text), private.synced_table_year_column(text) to authenticated, service_role;

-- Every function that calls them (pull_changes, pull_changes_many, pull_row_counts,
-- push_changes, push_changes_reported, the change-history and identity triggers) is
-- recreated from its current definition with the new names and nothing else changed:
-- the same text, settings and grants, so this cannot drift from the migrations that
-- wrote them.
do $$
declare
  v_function regprocedure;
begin
  for v_function in
    select p.oid::regprocedure
    from pg_catalog.pg_proc p
    where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
      and (p.prosrc like '%public.synced_table_key(%' or p.prosrc like '%public.synced_table_year_column(%')
  loop
    execute replace(replace(pg_catalog.pg_get_functiondef(v_function),
                            'public.synced_table_key(', 'private.synced_table_key('),
                    'public.synced_table_year_column(', 'private.synced_table_year_column(');
  end loop;
  if exists (select 1 from pg_catalog.pg_proc p
             where p.prosrc like '%public.synced_table_key%' or p.prosrc like '%public.synced_table_year_column%') then
    raise exception 'a function still calls public.synced_table_key or public.synced_table_year_column';
  end if;
end
$$;

drop function public.synced_table_key(text);
drop function public.synced_table_year_column(text);
