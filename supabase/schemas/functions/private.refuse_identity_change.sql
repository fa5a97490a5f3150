-- A figure's identity never changes in place: an update through the API that changes the
-- id or a natural-key column of a synced table (private.synced_tables) is refused with
-- SQLSTATE 23I01 and a message naming the column, and one that moves a row to another
-- store with 42501, as the store's policies refuse another store's row. The change
-- history files each change under the row's key, so a moved key would leave no record.
-- Its triggers fire only when an identity column changes (their WHEN clause).
create or replace function private.refuse_identity_change() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_identity text[] := array['id'] || private.synced_table_key(tg_table_name);
  v_old jsonb;
  v_new jsonb;
  v_changed text;
begin
  if nullif(current_setting('request.jwt.claims', true), '') is null then
    return new;
  end if;
  v_old := to_jsonb(old);
  v_new := to_jsonb(new);
  -- A figure belongs to its store: moving it to another is refused as the store's policies
  -- refuse another store's row (42501), for admins too.
  if v_old -> 'store_id' is distinct from v_new -> 'store_id' then
    raise exception 'a % row cannot move to another store', tg_table_name
      using errcode = '42501',
            hint = 'Enter the value in the other store and clear it here; both are recorded in the history.';
  end if;
  select string_agg(distinct k, ', ') into v_changed
    from unnest(v_identity) k where v_old -> k is distinct from v_new -> k;
  raise exception '% of a % row cannot change: a figure''s id and its % never change in place',
                  v_changed, tg_table_name, array_to_string(private.synced_table_key(tg_table_name), ', ')
    using errcode = '23I01',
          hint = 'Enter the value under its new date, row or metric and clear the old one; both are recorded in the history.';
end
$$;

revoke all on function private.refuse_identity_change() from public;
