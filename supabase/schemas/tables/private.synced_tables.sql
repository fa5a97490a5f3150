-- The synced tables and their natural keys in one place. Each synced table's own file adds
-- its row here; private.synced_table_key() is how the sync functions (security invoker, so
-- they cannot read the private schema themselves) look a table up, and the triggers that
-- guard identity and record the history read the key from it too. The device's copy of the
-- list is src/data/synced-tables.ts; a test keeps the two equal.

create table private.synced_tables (
  name text primary key,
  key_columns text[] not null check (cardinality(key_columns) between 1 and 8)
);

comment on column private.synced_tables.key_columns is 'The table''s natural key: what its unique constraint, the device''s local keys and the push''s row matching name.';
