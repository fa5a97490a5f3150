-- The product's schemas besides public: private holds what only the database itself uses
-- (helpers of policies and triggers, the synced-table registry, what runs as its owner),
-- which the API does not serve;
-- audit holds the change history, which the API reads only through public.change_history.

create schema if not exists private;
revoke all on schema private from public;
-- The API roles reach private's functions only from within the public ones and the
-- policies: usage on the schema, and execute only where a function's file grants it
-- (each file revokes it from public, which every new function otherwise grants).
grant usage on schema private to authenticated, service_role;

create schema if not exists audit;
revoke all on schema audit from public;
grant usage on schema audit to authenticated, service_role;
