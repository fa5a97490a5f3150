-- The product's schemas besides public: private holds what only the database itself uses
-- (helpers of policies and triggers, the synced-table registry), out of the API's reach;
-- audit holds the change history, which the API reads only through public.change_history.

create schema if not exists private;
revoke all on schema private from public;

create schema if not exists audit;
revoke all on schema audit from public;
grant usage on schema audit to authenticated, service_role;
