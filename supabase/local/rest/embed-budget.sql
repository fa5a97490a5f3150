-- The embedded backend's budget of embedded rows per REST statement (never part of a
-- hosted project). Every embedded list a statement builds spends its row count from a
-- transaction-local counter; past the budget the statement stops with 54000
-- (program_limit_exceeded). PGlite cannot interrupt a running statement, so this is
-- what keeps a request like a(b(c)) over large tables from running for minutes.

create schema if not exists rest_local;
grant usage on schema rest_local to anon, authenticated, service_role;

create or replace function rest_local.spend_embedded_rows(p_rows bigint, p_budget integer)
returns boolean
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_spent bigint := coalesce(nullif(pg_catalog.current_setting('rest_local.embedded_rows', true), ''), '0')::bigint + p_rows;
begin
  if v_spent > p_budget then
    raise exception 'The request embeds more than % rows', p_budget
      using errcode = '54000',
            hint = 'Narrow the embedded resources with filters or limits, or ask for fewer rows at a time.';
  end if;
  perform pg_catalog.set_config('rest_local.embedded_rows', v_spent::text, true);
  return true;
end
$$;

revoke execute on function rest_local.spend_embedded_rows(bigint, integer) from public;
grant execute on function rest_local.spend_embedded_rows(bigint, integer) to anon, authenticated, service_role;
