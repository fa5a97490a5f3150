-- Monthly financial figures for the yearly trend. ros holds the month's hours (the
-- spec's reading); the percentages and net profit are derived on the client.

create table public.yearly_financial_inputs (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  year integer not null check (year between 2000 and 2100),
  month integer not null check (month between 1 and 12),
  sales numeric(14, 2),
  gp_net numeric(14, 2),
  ros numeric(14, 2),
  personnel_exp numeric(14, 2),
  semi_fixed_exp numeric(14, 2),
  fixed_exp numeric(14, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint yearly_financial_inputs_natural_key unique (store_id, year, month)
);

create index yearly_financial_inputs_sync on public.yearly_financial_inputs (sync_xid, id);

select private.make_store_scoped('public.yearly_financial_inputs');
