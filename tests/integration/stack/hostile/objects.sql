-- Test-only objects of the hostile-request suite (never part of the product's migrations):
-- a computed relationship, a computed field and a view showing a table's keys, so that
-- the REST API's forms built on them face the hostile requests too. Each runs as the
-- caller, so the figures' row-level security holds through all of them.
create function public.store_figures(public.stores) returns setof public.daily_inputs
language sql stable as $$ select * from public.daily_inputs where store_id = $1.id $$;
create function public.figure_label(public.daily_inputs) returns text
language sql stable as $$ select $1.row_identifier || ' ' || $1.metric_type $$;
create view public.figures_view with (security_invoker = true) as
  select id, store_id, entry_date, row_identifier, value from public.daily_inputs;
revoke insert, update, delete, truncate on public.figures_view from anon, authenticated, service_role;
