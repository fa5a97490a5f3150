-- The embedded backend's budgets of embedded and aggregated rows per REST statement (never part of a
-- hosted project). Every embedded resource a statement looks up spends its row count
-- (at least one, for the lookup) from a transaction-local counter; past the budget the
-- statement stops with 54000 (program_limit_exceeded). PGlite cannot interrupt a
-- running statement, so this is what keeps a request like a(b(c)) over large tables
-- from running for minutes. The counting function is plain SQL so that Postgres inlines
-- it: it runs once per embedded lookup and must cost next to nothing.

create schema if not exists rest_local;
grant usage on schema rest_local to anon, authenticated, service_role;

create or replace function rest_local.spend_embedded_rows(p_rows bigint, p_budget integer)
returns boolean
language sql volatile
as $$
  select pg_catalog.set_config(
    'rest_local.embedded_rows',
    (coalesce(nullif(pg_catalog.current_setting('rest_local.embedded_rows', true), ''), '0')::bigint + p_rows)::text,
    true
  )::bigint <= p_budget
$$;

create or replace function rest_local.embedded_rows_exceeded(p_budget integer)
returns json
language plpgsql volatile
set search_path = ''
as $$
begin
  raise exception 'The request embeds more than % rows', p_budget
    using errcode = '54000',
          hint = 'Narrow the embedded resources with filters or limits, or ask for fewer rows at a time.';
end
$$;

-- The same for the rows a statement feeds into aggregate functions (sum(), count(), ...):
-- each row an aggregating level reads spends one.
create or replace function rest_local.spend_aggregated_rows(p_rows bigint, p_budget integer)
returns boolean
language sql volatile
as $$
  select pg_catalog.set_config(
    'rest_local.aggregated_rows',
    (coalesce(nullif(pg_catalog.current_setting('rest_local.aggregated_rows', true), ''), '0')::bigint + p_rows)::text,
    true
  )::bigint <= p_budget
$$;

create or replace function rest_local.aggregated_rows_exceeded(p_budget integer)
returns json
language plpgsql volatile
set search_path = ''
as $$
begin
  raise exception 'The request aggregates more than % rows', p_budget
    using errcode = '54000',
          hint = 'Narrow the aggregated rows with filters, or aggregate in a database function.';
end
$$;

revoke execute on function rest_local.spend_embedded_rows(bigint, integer), rest_local.embedded_rows_exceeded(integer),
  rest_local.spend_aggregated_rows(bigint, integer), rest_local.aggregated_rows_exceeded(integer) from public;
grant execute on function rest_local.spend_embedded_rows(bigint, integer), rest_local.embedded_rows_exceeded(integer),
  rest_local.spend_aggregated_rows(bigint, integer), rest_local.aggregated_rows_exceeded(integer)
  to anon, authenticated, service_role;
