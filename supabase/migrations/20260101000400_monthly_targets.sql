-- Per-month KPI targets, one row per metric key (hoursPerDay, salesPerDay, cpElr, ...).
-- The spec reads several spellings of the ELR keys, so the key is checked for shape
-- rather than against a closed list.

create table public.monthly_targets (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  year integer not null check (year between 2000 and 2100),
  month integer not null check (month between 1 and 12),
  metric_key text not null check (metric_key ~ '^[a-z][A-Za-z0-9]{1,63}$'),
  target_value numeric(14, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint monthly_targets_natural_key unique (store_id, year, month, metric_key)
);

create index monthly_targets_sync on public.monthly_targets (sync_xid, id);

select private.make_store_scoped('public.monthly_targets');
