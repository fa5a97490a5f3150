-- The change history as the API reads it (audit.change_history holds the rows). A
-- security-invoker view, so the table's row-level security applies to whoever reads it:
-- store members read their store's history, admins every store's. SELECT only.

create view public.change_history with (security_invoker = true) as
  select id, store_id, table_name, row_key, field, old_value, new_value, changed_by, changed_by_name, device_id, typed_at, arrived_at, source
  from audit.change_history;

revoke all on public.change_history from public, anon, authenticated;
grant select on public.change_history to authenticated, service_role;
