-- Dealership stores and each store's service-department configuration. Stores are
-- managed by admins only; every member reads their own store, admins read all.

create table public.stores (
  id uuid primary key default gen_random_uuid(),
  name text not null check (btrim(name) <> '' and length(name) <= 200),
  subdomain text unique check (subdomain ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz
);

create trigger stamp_sync_columns before insert or update on public.stores
  for each row execute function private.stamp_sync_columns();

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


create table public.store_settings (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null unique references public.stores (id) on delete cascade,
  labour_rate numeric(10, 2) check (labour_rate >= 0),
  warranty_rate numeric(10, 2) check (warranty_rate >= 0),
  internal_rate numeric(10, 2) check (internal_rate >= 0),
  stalls integer check (stalls >= 0),
  journeyman_technicians integer check (journeyman_technicians >= 0),
  apprentice_technicians integer check (apprentice_technicians >= 0),
  lube_techs integer check (lube_techs >= 0),
  service_advisors integer check (service_advisors >= 0),
  appt_coordinator integer check (appt_coordinator >= 0),
  dispatcher integer check (dispatcher >= 0),
  service_manager integer check (service_manager >= 0),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz
);

select private.make_store_scoped('public.store_settings');

create index stores_sync on public.stores (sync_xid, id);
create index store_settings_sync on public.store_settings (sync_xid, id);
