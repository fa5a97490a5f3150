-- What a store's month uses now: its work week and Work Mix target, or the defaults the
-- screens assume while it has none (Monday to Saturday; CP 40, W 30, I 30 percent).
create or replace function private.month_settings_now(p_store uuid)
returns table (work_week text, mix_target_cp numeric, mix_target_w numeric, mix_target_i numeric)
language sql stable security definer
set search_path = ''
as $$
  select coalesce(s.work_week, '1111110'), coalesce(s.mix_target_cp, 40), coalesce(s.mix_target_w, 30), coalesce(s.mix_target_i, 30)
  from (select 1) one
  left join public.store_settings s on s.store_id = p_store and s.deleted_at is null
$$;

revoke all on function private.month_settings_now(uuid) from public;
