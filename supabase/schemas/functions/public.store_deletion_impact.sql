-- What deleting a store takes with it, for the admin's confirmation: whether the store
-- exists (read as the caller), and the accounts and rows that go with it
-- (private.store_deletion_counts). Anyone but an admin is refused with 42501, as
-- store_comparison is.
create or replace function public.store_deletion_impact(p_store uuid)
returns jsonb
language plpgsql stable security invoker
set search_path = ''
as $$
begin
  if not public.is_user_admin() then
    raise exception 'Only an administrator can delete stores.' using errcode = '42501';
  end if;
  if p_store is null then
    raise exception 'store_deletion_impact: a store id is needed' using errcode = '22023';
  end if;
  return jsonb_build_object(
    'exists', exists (select 1 from public.stores s where s.id = p_store and s.deleted_at is null))
    || private.store_deletion_counts(p_store);
end
$$;

revoke execute on function public.store_deletion_impact(uuid) from public, anon;
grant execute on function public.store_deletion_impact(uuid) to authenticated, service_role;
