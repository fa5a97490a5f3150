-- Dealership stores. Stores are managed by admins only; every member reads their own
-- store, admins read all.

create table public.stores (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  subdomain text unique check (subdomain ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint stores_name_length check (btrim(name) <> '' and char_length(name) <= 200)
);

comment on column public.stores.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index stores_sync on public.stores (sync_xid, id);

alter table public.stores enable row level security;

create policy "Members read their store and admins read all stores" on public.stores
  for select to authenticated
  using (id = (select public.get_user_store_id()) or (select public.is_user_admin()));
create policy "Admins add stores" on public.stores
  for insert to authenticated with check ((select public.is_user_admin()));
create policy "Admins change stores" on public.stores
  for update to authenticated
  using ((select public.is_user_admin())) with check ((select public.is_user_admin()));
create policy "Admins delete stores" on public.stores
  for delete to authenticated using ((select public.is_user_admin()));

revoke all on public.stores from anon;
revoke truncate, references, trigger on public.stores from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.stores
  for each row
  execute function private.stamp_sync_columns();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.stores
  for each row when (old.id is distinct from new.id)
  execute function private.refuse_identity_change();
-- created_at is when the row reached the server, whatever a request sends.
create trigger stamp_created_at_insert before insert on public.stores
  for each row when (new.created_at is distinct from now())
  execute function private.stamp_created_at();
create trigger stamp_created_at_update before update on public.stores
  for each row when (new.created_at is distinct from old.created_at)
  execute function private.stamp_created_at();

-- Adding, renaming or deleting a store needs the second factor.
create trigger store_change_needs_second_factor before insert or update or delete on public.stores
  for each row execute function private.store_change_needs_second_factor();

alter publication supabase_realtime add table public.stores;

insert into private.synced_tables (name, key_columns) values ('stores', array['id']);
