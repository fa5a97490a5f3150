-- What deleting a store takes with it: how many accounts are assigned to it (they keep
-- their sign-in but lose their store) and how many live rows each table that cascades from
-- public.stores holds for it. The tables are read from the catalogue, so a table added
-- later with its own cascade is counted too. Runs as its owner (it reads auth.users and
-- every store), so it refuses anyone but an admin itself.
create function private.store_deletion_counts(p_store uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_table record;
  v_count bigint;
  v_rows jsonb := '{}'::jsonb;
  v_users bigint;
begin
  if not private.caller_is_admin() then
    raise exception 'Only an administrator can delete stores.' using errcode = '42501';
  end if;
  select count(*) into v_users from auth.users u where u.raw_app_meta_data ->> 'store_id' = p_store::text;
  for v_table in
    select c.relname as name,
           exists (select 1 from pg_catalog.pg_attribute a
                   where a.attrelid = c.oid and a.attname = 'deleted_at' and not a.attisdropped) as soft_deleted
    from pg_catalog.pg_constraint f
    join pg_catalog.pg_class c on c.oid = f.conrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_attribute k on k.attrelid = f.conrelid and k.attnum = f.conkey[1]
    where f.contype = 'f' and f.confrelid = 'public.stores'::regclass and f.confdeltype = 'c'
      and n.nspname = 'public' and k.attname = 'store_id' and cardinality(f.conkey) = 1
    order by c.relname
  loop
    execute format('select count(*) from public.%I where store_id = $1%s', v_table.name,
                   case when v_table.soft_deleted then ' and deleted_at is null' else '' end)
      into v_count using p_store;
    if v_count > 0 then
      v_rows := v_rows || jsonb_build_object(v_table.name, v_count);
    end if;
  end loop;
  return jsonb_build_object('users', v_users, 'rows', v_rows);
end
$$;

revoke all on function private.store_deletion_counts(uuid) from public;
grant execute on function private.store_deletion_counts(uuid) to authenticated, service_role;
