-- Store comparison, for admins: every store's rows for one month and the same month a
-- year before, as the month screens read them on a store's own device
-- (private.store_month_rows). The app computes every figure from these with the same code
-- as the store's own screens, so the comparison and a store's tiles can never disagree.
-- The list of stores is read as the caller (the stores' policy lets an admin read every
-- store); anyone but an admin is refused with 42501 by the database, whatever the screen
-- shows.
create or replace function public.store_comparison(p_month date)
returns jsonb
language plpgsql stable security invoker
set search_path = ''
as $$
declare
  v_month date := date_trunc('month', p_month)::date;
begin
  if not public.is_user_admin() then
    raise exception 'Only an administrator can compare stores.' using errcode = '42501';
  end if;
  if p_month is null or v_month < date '2000-01-01' or v_month > date '2100-12-01' then
    raise exception 'store_comparison: a month from 2000 to 2100 is needed' using errcode = '22023';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'store_id', s.id,
             'name', s.name,
             'month', private.store_month_rows(s.id, v_month),
             'last_year', private.store_month_rows(s.id, (v_month - interval '1 year')::date))
           order by s.name)
    from public.stores s
    where s.deleted_at is null), '[]'::jsonb);
end
$$;

revoke execute on function public.store_comparison(date) from public, anon;
grant execute on function public.store_comparison(date) to authenticated, service_role;
