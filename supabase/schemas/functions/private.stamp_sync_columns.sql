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

revoke all on function private.stamp_sync_columns() from public;
