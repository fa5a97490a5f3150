-- The app reads and writes through the REST API and Realtime only; it never uses
-- GraphQL. A hosted project has pg_graphql installed by default, and pg_graphql serves
-- /graphql/v1 a description of every table, view and column the caller's role may
-- select (row-level security hides rows, not the schema), so any signed-in person could
-- list the product's tables there. Supabase's advice for a project that does not use
-- GraphQL is to remove the extension; /graphql/v1 then answers only that it is not
-- enabled. The embedded backend and a plain PostgreSQL never have it, so this does
-- nothing there. To use GraphQL one day, enable the extension again in the dashboard
-- and review what each role may select first.

do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'pg_graphql') then
    drop extension pg_graphql;
  end if;
end
$$;
