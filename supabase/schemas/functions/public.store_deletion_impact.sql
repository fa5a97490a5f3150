-- What deleting a store takes with it, for the admin's confirmation: how many accounts
-- are assigned to it (they keep their sign-in but lose their store) and how many live
-- rows each table that cascades from public.stores holds for it. The tables are read
-- from the catalogue, so a table added later with its own cascade is counted too.
-- Security definer (it reads every store and auth.users), so it checks itself: anyone
-- but an admin is refused with 42501, as store_comparison is.
create or replace function public.store_deletion_impact(p_store uuid)
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_table record;
  v_count bigint;
  v_rows jsonb := '{}'::jsonb;
  v_users bigint;
begin
  if not public.is_user_admin() then
    raise exception 'Only an administrator can delete stores.' using errcode = '42501';
  end if;
  if p_store is null then
    raise exception 'store_deletion_impact: a store id is needed' using errcode = '22023';
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
  return jsonb_build_object(
    'exists', exists (select 1 from public.stores s where s.id = p_store and s.deleted_at is null),
    'users', v_users,
    'rows', v_rows);
end
$$;

revoke execute on function public.store_deletion_impact(uuid) from public, anon;
grant execute on function public.store_deletion_impact(uuid) to authenticated, service_role;
