-- Who may see what: store membership and the admin flag, read from the authoritative
-- app_metadata (written only by the service role), never from user_metadata, which any
-- signed-in user can change about themselves. Read from auth.users rather than the JWT
-- so a store reassignment or a revoked admin flag applies at once, not at token refresh.

create schema if not exists private;
revoke all on schema private from public;

create or replace function public.get_user_store_id() returns uuid
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

create or replace function public.is_user_admin() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (select (u.raw_app_meta_data ->> 'is_admin') = 'true' from auth.users u where u.id = auth.uid()),
    false
  )
$$;

revoke execute on function public.get_user_store_id(), public.is_user_admin() from public, anon;
grant execute on function public.get_user_store_id(), public.is_user_admin() to authenticated, service_role;

-- Sync columns: the server clock stamps updated_at, and sync_xid records the writing
-- transaction so pull_changes can page by commit-safe transaction ids (see its header).
create or replace function private.stamp_sync_columns() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  new.sync_xid := pg_catalog.pg_current_xact_id();
  return new;
end
$$;

-- Adds the sync columns' trigger and the store-scoped policies every store data table
-- shares: members of the row's store read, insert and update; nobody deletes through the
-- API (rows are retired with deleted_at so that pulls see the removal).
create or replace function private.make_store_scoped(p_table regclass) returns void
language plpgsql
set search_path = ''
as $$
begin
  execute format(
    'create trigger stamp_sync_columns before insert or update on %s
       for each row execute function private.stamp_sync_columns()', p_table);
  execute format('alter table %s enable row level security', p_table);
  execute format(
    'create policy "Store members can read their store''s rows" on %s for select
       to authenticated using (store_id = (select public.get_user_store_id()))', p_table);
  execute format(
    'create policy "Store members can add rows to their store" on %s for insert
       to authenticated with check (store_id = (select public.get_user_store_id()))', p_table);
  execute format(
    'create policy "Store members can change their store''s rows" on %s for update
       to authenticated using (store_id = (select public.get_user_store_id()))
       with check (store_id = (select public.get_user_store_id()))', p_table);
  execute format('revoke all on %s from anon', p_table);
  execute format('revoke delete, truncate, references, trigger on %s from authenticated', p_table);
end
$$;
