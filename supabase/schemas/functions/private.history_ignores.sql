-- Fields that are bookkeeping, not figures: ids and sync stamps, and the calendar fields
-- a row derives from its date (its key says the date already).
create or replace function private.history_ignores(p_field text) returns boolean
language sql immutable
set search_path = ''
as $$
  select p_field in ('id', 'store_id', 'created_at', 'updated_at', 'sync_xid',
                     'year', 'month', 'day_of_week_iso', 'week_of_month_display', 'year_week_actual')
$$;

revoke all on function private.history_ignores(text) from public;
