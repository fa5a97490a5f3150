-- Fields the history leaves out on this statement's kind: the sync and identity
-- columns always, the date-bound calendar columns always, the week labels on insert.
create or replace function private.history_ignores_on(p_field text, p_op text) returns boolean
language sql immutable
set search_path = ''
as $$
  select p_field in ('id', 'store_id', 'created_at', 'updated_at', 'sync_xid', 'year', 'month', 'day_of_week_iso')
      or (p_op = 'INSERT' and p_field in ('week_of_month_display', 'year_week_actual'))
$$;

revoke all on function private.history_ignores_on(text, text) from public;
