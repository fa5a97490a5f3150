-- The column that bounds a synced table by year, if any: 'year' or 'month_year'.
create function private.synced_table_year_column(p_table text) returns text
language sql stable security invoker
set search_path = ''
as $$
  select a.attname::text
  from pg_catalog.pg_attribute a
  where a.attrelid = pg_catalog.to_regclass(pg_catalog.format('public.%I', p_table))
    and a.attname in ('year', 'month_year')
    and a.attnum > 0 and not a.attisdropped
  order by a.attname = 'year' desc
  limit 1
$$;

revoke all on function private.synced_table_year_column(text) from public;
grant execute on function private.synced_table_year_column(text) to authenticated, service_role;
