-- The lock of a store's month: (a hash of the store, year * 100 + month).
create or replace function private.lock_month(p_store uuid, p_month date, p_exclusive boolean) returns void
language plpgsql volatile
set search_path = ''
as $$
declare
  v_store integer := pg_catalog.hashtext('month ' || p_store::text);
  v_month integer := (extract(year from p_month) * 100 + extract(month from p_month))::integer;
begin
  if p_exclusive then
    perform pg_catalog.pg_advisory_xact_lock(v_store, v_month);
  else
    perform pg_catalog.pg_advisory_xact_lock_shared(v_store, v_month);
  end if;
end
$$;

revoke all on function private.lock_month(uuid, date, boolean) from public;
