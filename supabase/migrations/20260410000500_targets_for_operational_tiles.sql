-- Targets for the tiles that read the month's operational counts: ROs open over 30 days
-- (a whole number of repair orders) and shop supplies (money), as src/domain/limits.ts
-- has them. The rule is restated whole, as it was in 20260301000000_field_limits.sql,
-- with the two new keys.

alter table public.monthly_targets
  drop constraint monthly_targets_target_value_in_range,
  add constraint monthly_targets_target_value_in_range check (target_value is null or (target_value <> 'NaN' and case metric_key
      when 'hoursPerDay' then target_value between 0 and 3000
      when 'salesPerDay' then target_value between 0 and 1500000
      when 'cpElr' then target_value between 0 and 1000
      when 'warrantyElr' then target_value between 0 and 1000
      when 'warElr' then target_value between 0 and 1000
      when 'internalElr' then target_value between 0 and 1000
      when 'intElr' then target_value between 0 and 1000
      when 'totalElr' then target_value between 0 and 1000
      when 'cpHoursPerRo' then target_value between 0 and 50
      when 'rosOver30Days' then (target_value between 0 and 100000 and target_value = trunc(target_value))
      when 'shopSupplies' then target_value between 0 and 10000000
      when 'daysComplete' then (target_value between 0 and 31 and target_value = trunc(target_value))
      when 'rosOver45Days' then (target_value between 0 and 100000 and target_value = trunc(target_value))
      when 'weOweOver30Days' then (target_value between 0 and 100000 and target_value = trunc(target_value))
      when 'grossPerEmployee' then target_value between 0 and 10000000
      else target_value between 0 and 10000000
    end)) not valid;

alter table public.monthly_targets validate constraint monthly_targets_target_value_in_range;
