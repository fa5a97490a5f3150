-- The Work Mix tile's target: the share of hours a store aims for in each labour
-- category, in percent. Before this the target was fixed text ("CP 40%, W 30%, I 30%")
-- and the tile was green whatever the mix. Null in all three means that default; when
-- set, the three add up to 100.

alter table public.store_settings
  add column mix_target_cp numeric(5, 2),
  add column mix_target_w numeric(5, 2),
  add column mix_target_i numeric(5, 2),
  add constraint store_settings_mix_target_cp_in_range check (mix_target_cp is null or (mix_target_cp <> 'NaN' and mix_target_cp between 0 and 100)),
  add constraint store_settings_mix_target_w_in_range check (mix_target_w is null or (mix_target_w <> 'NaN' and mix_target_w between 0 and 100)),
  add constraint store_settings_mix_target_i_in_range check (mix_target_i is null or (mix_target_i <> 'NaN' and mix_target_i between 0 and 100)),
  add constraint store_settings_mix_target_adds_up check (
    (mix_target_cp is null and mix_target_w is null and mix_target_i is null)
    or (mix_target_cp + mix_target_w + mix_target_i = 100));
