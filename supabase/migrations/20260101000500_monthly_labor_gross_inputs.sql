-- Gross and return-on-sales inputs of the monthly performance table, one row per
-- store, month and labour type. direct_sales_value is only meaningful for sublet.

create table public.monthly_labor_gross_inputs (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  month_year date not null check (extract(day from month_year) = 1),
  labor_type text not null
    check (labor_type in ('customerPay', 'warranty', 'internal', 'sublet', 'unappliedTime')),
  gross_value numeric(14, 2),
  direct_sales_value numeric(14, 2),
  return_on_sales numeric(14, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint monthly_labor_gross_inputs_natural_key unique (store_id, month_year, labor_type)
);

create index monthly_labor_gross_inputs_sync on public.monthly_labor_gross_inputs (sync_xid, id);

select private.make_store_scoped('public.monthly_labor_gross_inputs');
