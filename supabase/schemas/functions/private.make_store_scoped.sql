-- Adds the sync columns' trigger and the store-scoped policies every store data table
-- shares: members of the row's store read, insert and update; nobody deletes through the
-- API (rows are retired with deleted_at so that pulls see the removal).
create or replace function private.make_store_scoped(p_table regclass) returns void
language plpgsql
set search_path = ''
as $$
begin
  execute format(
    'create trigger stamp_sync_columns before insert or update on %s
       for each row execute function private.stamp_sync_columns()', p_table);
  execute format('alter table %s enable row level security', p_table);
  execute format(
    'create policy "Store members can read their store''s rows" on %s for select
       to authenticated using (store_id = (select public.get_user_store_id()))', p_table);
  execute format(
    'create policy "Store members can add rows to their store" on %s for insert
       to authenticated with check (store_id = (select public.get_user_store_id()))', p_table);
  execute format(
    'create policy "Store members can change their store''s rows" on %s for update
       to authenticated using (store_id = (select public.get_user_store_id()))
       with check (store_id = (select public.get_user_store_id()))', p_table);
  execute format('revoke all on %s from anon', p_table);
  execute format('revoke delete, truncate, references, trigger on %s from authenticated', p_table);
end
$$;

revoke all on function private.make_store_scoped(regclass) from public;
