-- Field limits: every writable number, text and list column of the synced tables keeps to
-- the bounds of fieldLimits in src/domain/limits.ts, where each bound is explained. The
-- device applies the same table before it queues an edit; these constraints are what
-- holds for every other way in (REST, RPC, an older app version, a script). A test holds
-- the two in agreement on PGlite and PostgreSQL, and fails on a new column without a limit.
--
-- Numbers: finite (numeric takes 'NaN', refused here; 'Infinity' cannot fit a numeric
-- with a precision and fails with 22003 before any check), within [min, max], and whole
-- where the field counts things. Text and lists: a maximum length in characters / items.
--
-- Names say which field a refusal is about: <table>_<column>_in_range for numbers and
-- <table>_<column>_length for text and lists, so the device can turn a 23514 into a
-- sentence naming the field and its range. The older single-column checks these replace
-- are dropped, so each field has exactly one rule. Closed lists and fixed shapes (labour
-- category, metric, labour type, metric key, ISO week, subdomain) keep their checks.
--
-- Rows already stored: every constraint is added NOT VALID (it holds for every write from
-- now on) and then validated. Where old rows break a limit (a NaN or a negative hours
-- value typed before limits existed), validation is skipped for that constraint with a
-- warning naming it, and the rows are left as they are: the migration never deletes or
-- changes a figure someone entered. Such a row shows on the screens as before; saving
-- any change to it must bring the field within its limit. An operator finds the rows with
-- the query in docs/security.md and validates the constraint once they are corrected.

alter table public.stores
  drop constraint stores_name_check,
  add constraint stores_name_length check (btrim(name) <> '' and char_length(name) <= 200) not valid;

alter table public.store_settings
  drop constraint store_settings_labour_rate_check,
  drop constraint store_settings_warranty_rate_check,
  drop constraint store_settings_internal_rate_check,
  drop constraint store_settings_stalls_check,
  drop constraint store_settings_journeyman_technicians_check,
  drop constraint store_settings_apprentice_technicians_check,
  drop constraint store_settings_lube_techs_check,
  drop constraint store_settings_service_advisors_check,
  drop constraint store_settings_appt_coordinator_check,
  drop constraint store_settings_dispatcher_check,
  drop constraint store_settings_service_manager_check,
  add constraint store_settings_labour_rate_in_range check (labour_rate is null or (labour_rate <> 'NaN' and labour_rate between 0 and 1000)) not valid,
  add constraint store_settings_warranty_rate_in_range check (warranty_rate is null or (warranty_rate <> 'NaN' and warranty_rate between 0 and 1000)) not valid,
  add constraint store_settings_internal_rate_in_range check (internal_rate is null or (internal_rate <> 'NaN' and internal_rate between 0 and 1000)) not valid,
  add constraint store_settings_stalls_in_range check (stalls is null or stalls between 0 and 1000) not valid,
  add constraint store_settings_journeyman_technicians_in_range check (journeyman_technicians is null or journeyman_technicians between 0 and 1000) not valid,
  add constraint store_settings_apprentice_technicians_in_range check (apprentice_technicians is null or apprentice_technicians between 0 and 1000) not valid,
  add constraint store_settings_lube_techs_in_range check (lube_techs is null or lube_techs between 0 and 1000) not valid,
  add constraint store_settings_service_advisors_in_range check (service_advisors is null or service_advisors between 0 and 1000) not valid,
  add constraint store_settings_appt_coordinator_in_range check (appt_coordinator is null or appt_coordinator between 0 and 1000) not valid,
  add constraint store_settings_dispatcher_in_range check (dispatcher is null or dispatcher between 0 and 1000) not valid,
  add constraint store_settings_service_manager_in_range check (service_manager is null or service_manager between 0 and 1000) not valid;

alter table public.daily_inputs
  drop constraint daily_inputs_month_check,
  drop constraint daily_inputs_day_of_week_iso_check,
  drop constraint daily_inputs_week_of_month_display_check,
  add constraint daily_inputs_year_in_range check (year between 2000 and 2100) not valid,
  add constraint daily_inputs_month_in_range check (month between 1 and 12) not valid,
  add constraint daily_inputs_day_of_week_iso_in_range check (day_of_week_iso between 1 and 7) not valid,
  add constraint daily_inputs_week_of_month_display_in_range check (week_of_month_display is null or week_of_month_display between 1 and 6) not valid,
  add constraint daily_inputs_value_in_range check (value is null or (value <> 'NaN' and case metric_type
      when 'hours' then value between 0 and 1000
      when 'sales' then value between 0 and 500000
      else false
    end)) not valid;

alter table public.weekly_store_performance
  drop constraint weekly_store_performance_days_complete_check,
  drop constraint weekly_store_performance_work_days_check,
  add constraint weekly_store_performance_year_in_range check (year between 2000 and 2100) not valid,
  add constraint weekly_store_performance_days_complete_in_range check (days_complete is null or days_complete between 0 and 7) not valid,
  add constraint weekly_store_performance_work_days_in_range check (work_days is null or work_days between 0 and 7) not valid;

alter table public.monthly_targets
  drop constraint monthly_targets_year_check,
  drop constraint monthly_targets_month_check,
  add constraint monthly_targets_year_in_range check (year between 2000 and 2100) not valid,
  add constraint monthly_targets_month_in_range check (month between 1 and 12) not valid,
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
      when 'daysComplete' then (target_value between 0 and 31 and target_value = trunc(target_value))
      when 'rosOver45Days' then (target_value between 0 and 100000 and target_value = trunc(target_value))
      when 'weOweOver30Days' then (target_value between 0 and 100000 and target_value = trunc(target_value))
      when 'grossPerEmployee' then target_value between 0 and 10000000
      else target_value between 0 and 10000000
    end)) not valid;

alter table public.monthly_labor_gross_inputs
  add constraint monthly_labor_gross_inputs_gross_value_in_range check (gross_value is null or (gross_value <> 'NaN' and gross_value between -10000000 and 10000000)) not valid,
  add constraint monthly_labor_gross_inputs_direct_sales_value_in_range check (direct_sales_value is null or (direct_sales_value <> 'NaN' and direct_sales_value between 0 and 10000000)) not valid,
  add constraint monthly_labor_gross_inputs_return_on_sales_in_range check (return_on_sales is null or (return_on_sales <> 'NaN' and (return_on_sales between 0 and 100000 and return_on_sales = trunc(return_on_sales)))) not valid;

alter table public.yearly_financial_inputs
  drop constraint yearly_financial_inputs_year_check,
  drop constraint yearly_financial_inputs_month_check,
  add constraint yearly_financial_inputs_year_in_range check (year between 2000 and 2100) not valid,
  add constraint yearly_financial_inputs_month_in_range check (month between 1 and 12) not valid,
  add constraint yearly_financial_inputs_sales_in_range check (sales is null or (sales <> 'NaN' and sales between 0 and 10000000)) not valid,
  add constraint yearly_financial_inputs_gp_net_in_range check (gp_net is null or (gp_net <> 'NaN' and gp_net between -10000000 and 10000000)) not valid,
  add constraint yearly_financial_inputs_ros_in_range check (ros is null or (ros <> 'NaN' and ros between 0 and 100000)) not valid,
  add constraint yearly_financial_inputs_personnel_exp_in_range check (personnel_exp is null or (personnel_exp <> 'NaN' and personnel_exp between 0 and 10000000)) not valid,
  add constraint yearly_financial_inputs_semi_fixed_exp_in_range check (semi_fixed_exp is null or (semi_fixed_exp <> 'NaN' and semi_fixed_exp between 0 and 10000000)) not valid,
  add constraint yearly_financial_inputs_fixed_exp_in_range check (fixed_exp is null or (fixed_exp <> 'NaN' and fixed_exp between 0 and 10000000)) not valid;

alter table public.user_dashboard_preferences
  add constraint user_dashboard_preferences_selected_kpis_length check (selected_kpis is null or cardinality(selected_kpis) <= 32) not valid,
  add constraint user_dashboard_preferences_kpi_order_length check (kpi_order is null or cardinality(kpi_order) <= 32) not valid;

alter table public.front_end_team_advisors
  drop constraint front_end_team_advisors_advisor_name_check,
  add constraint front_end_team_advisors_advisor_name_length check (btrim(advisor_name) <> '' and char_length(advisor_name) <= 200) not valid,
  add constraint front_end_team_advisors_employee_id_length check (employee_id is null or char_length(employee_id) <= 64) not valid;

alter table public.front_end_team_daily_performance
  drop constraint front_end_team_daily_performance_month_check,
  drop constraint front_end_team_daily_performance_days_worked_check,
  add constraint front_end_team_daily_performance_year_in_range check (year between 2000 and 2100) not valid,
  add constraint front_end_team_daily_performance_month_in_range check (month between 1 and 12) not valid,
  add constraint front_end_team_daily_performance_days_worked_in_range check (days_worked is null or (days_worked <> 'NaN' and days_worked between 0 and 31)) not valid,
  add constraint front_end_team_daily_performance_pay_amount_in_range check (pay_amount is null or (pay_amount <> 'NaN' and pay_amount between 0 and 1000000)) not valid;

alter table public.front_end_team_advisor_totals
  drop constraint front_end_team_advisor_totals_month_check,
  add constraint front_end_team_advisor_totals_year_in_range check (year between 2000 and 2100) not valid,
  add constraint front_end_team_advisor_totals_month_in_range check (month between 1 and 12) not valid,
  add constraint front_end_team_advisor_totals_parts_labour_in_range check (parts_labour is null or (parts_labour <> 'NaN' and parts_labour between 0 and 10000000)) not valid,
  add constraint front_end_team_advisor_totals_labour_sales_in_range check (labour_sales is null or (labour_sales <> 'NaN' and labour_sales between 0 and 10000000)) not valid,
  add constraint front_end_team_advisor_totals_total_ros_in_range check (total_ros is null or (total_ros <> 'NaN' and (total_ros between 0 and 100000 and total_ros = trunc(total_ros)))) not valid,
  add constraint front_end_team_advisor_totals_total_hours_in_range check (total_hours is null or (total_hours <> 'NaN' and total_hours between 0 and 100000)) not valid,
  add constraint front_end_team_advisor_totals_cp_labour_in_range check (cp_labour is null or (cp_labour <> 'NaN' and cp_labour between 0 and 10000000)) not valid,
  add constraint front_end_team_advisor_totals_cp_ros_in_range check (cp_ros is null or (cp_ros <> 'NaN' and (cp_ros between 0 and 100000 and cp_ros = trunc(cp_ros)))) not valid,
  add constraint front_end_team_advisor_totals_cp_hours_in_range check (cp_hours is null or (cp_hours <> 'NaN' and cp_hours between 0 and 100000)) not valid,
  add constraint front_end_team_advisor_totals_internal_ros_in_range check (internal_ros is null or (internal_ros <> 'NaN' and (internal_ros between 0 and 100000 and internal_ros = trunc(internal_ros)))) not valid,
  add constraint front_end_team_advisor_totals_warranty_ros_in_range check (warranty_ros is null or (warranty_ros <> 'NaN' and (warranty_ros between 0 and 100000 and warranty_ros = trunc(warranty_ros)))) not valid;

alter table public.front_end_team_totals
  drop constraint front_end_team_totals_month_check,
  add constraint front_end_team_totals_year_in_range check (year between 2000 and 2100) not valid,
  add constraint front_end_team_totals_month_in_range check (month between 1 and 12) not valid,
  add constraint front_end_team_totals_parts_labour_in_range check (parts_labour is null or (parts_labour <> 'NaN' and parts_labour between 0 and 10000000)) not valid,
  add constraint front_end_team_totals_labour_sales_in_range check (labour_sales is null or (labour_sales <> 'NaN' and labour_sales between 0 and 10000000)) not valid,
  add constraint front_end_team_totals_total_ros_in_range check (total_ros is null or (total_ros <> 'NaN' and (total_ros between 0 and 100000 and total_ros = trunc(total_ros)))) not valid,
  add constraint front_end_team_totals_total_hours_in_range check (total_hours is null or (total_hours <> 'NaN' and total_hours between 0 and 100000)) not valid,
  add constraint front_end_team_totals_cp_labour_in_range check (cp_labour is null or (cp_labour <> 'NaN' and cp_labour between 0 and 10000000)) not valid,
  add constraint front_end_team_totals_cp_ros_in_range check (cp_ros is null or (cp_ros <> 'NaN' and (cp_ros between 0 and 100000 and cp_ros = trunc(cp_ros)))) not valid,
  add constraint front_end_team_totals_cp_hours_in_range check (cp_hours is null or (cp_hours <> 'NaN' and cp_hours between 0 and 100000)) not valid,
  add constraint front_end_team_totals_internal_ros_in_range check (internal_ros is null or (internal_ros <> 'NaN' and (internal_ros between 0 and 100000 and internal_ros = trunc(internal_ros)))) not valid,
  add constraint front_end_team_totals_warranty_ros_in_range check (warranty_ros is null or (warranty_ros <> 'NaN' and (warranty_ros between 0 and 100000 and warranty_ros = trunc(warranty_ros)))) not valid;

alter table public.front_end_team_advisor_op_codes
  drop constraint front_end_team_advisor_op_codes_month_check,
  add constraint front_end_team_advisor_op_codes_year_in_range check (year between 2000 and 2100) not valid,
  add constraint front_end_team_advisor_op_codes_month_in_range check (month between 1 and 12) not valid,
  add constraint front_end_team_advisor_op_codes_alignments_in_range check (alignments is null or (alignments <> 'NaN' and (alignments between 0 and 100000 and alignments = trunc(alignments)))) not valid,
  add constraint front_end_team_advisor_op_codes_tire_sales_in_range check (tire_sales is null or (tire_sales <> 'NaN' and (tire_sales between 0 and 100000 and tire_sales = trunc(tire_sales)))) not valid,
  add constraint front_end_team_advisor_op_codes_batteries_in_range check (batteries is null or (batteries <> 'NaN' and (batteries between 0 and 100000 and batteries = trunc(batteries)))) not valid,
  add constraint front_end_team_advisor_op_codes_auto_trans_service_in_range check (auto_trans_service is null or (auto_trans_service <> 'NaN' and (auto_trans_service between 0 and 100000 and auto_trans_service = trunc(auto_trans_service)))) not valid,
  add constraint front_end_team_advisor_op_codes_coolant_service_in_range check (coolant_service is null or (coolant_service <> 'NaN' and (coolant_service between 0 and 100000 and coolant_service = trunc(coolant_service)))) not valid,
  add constraint front_end_team_advisor_op_codes_diff_service_in_range check (diff_service is null or (diff_service <> 'NaN' and (diff_service between 0 and 100000 and diff_service = trunc(diff_service)))) not valid,
  add constraint front_end_team_advisor_op_codes_front_brakes_in_range check (front_brakes is null or (front_brakes <> 'NaN' and (front_brakes between 0 and 100000 and front_brakes = trunc(front_brakes)))) not valid,
  add constraint front_end_team_advisor_op_codes_rear_brakes_in_range check (rear_brakes is null or (rear_brakes <> 'NaN' and (rear_brakes between 0 and 100000 and rear_brakes = trunc(rear_brakes)))) not valid;

alter table public.front_end_team_op_codes
  drop constraint front_end_team_op_codes_month_check,
  add constraint front_end_team_op_codes_year_in_range check (year between 2000 and 2100) not valid,
  add constraint front_end_team_op_codes_month_in_range check (month between 1 and 12) not valid,
  add constraint front_end_team_op_codes_alignments_in_range check (alignments is null or (alignments <> 'NaN' and (alignments between 0 and 100000 and alignments = trunc(alignments)))) not valid,
  add constraint front_end_team_op_codes_tire_sales_in_range check (tire_sales is null or (tire_sales <> 'NaN' and (tire_sales between 0 and 100000 and tire_sales = trunc(tire_sales)))) not valid,
  add constraint front_end_team_op_codes_batteries_in_range check (batteries is null or (batteries <> 'NaN' and (batteries between 0 and 100000 and batteries = trunc(batteries)))) not valid,
  add constraint front_end_team_op_codes_auto_trans_service_in_range check (auto_trans_service is null or (auto_trans_service <> 'NaN' and (auto_trans_service between 0 and 100000 and auto_trans_service = trunc(auto_trans_service)))) not valid,
  add constraint front_end_team_op_codes_coolant_service_in_range check (coolant_service is null or (coolant_service <> 'NaN' and (coolant_service between 0 and 100000 and coolant_service = trunc(coolant_service)))) not valid,
  add constraint front_end_team_op_codes_diff_service_in_range check (diff_service is null or (diff_service <> 'NaN' and (diff_service between 0 and 100000 and diff_service = trunc(diff_service)))) not valid,
  add constraint front_end_team_op_codes_front_brakes_in_range check (front_brakes is null or (front_brakes <> 'NaN' and (front_brakes between 0 and 100000 and front_brakes = trunc(front_brakes)))) not valid,
  add constraint front_end_team_op_codes_rear_brakes_in_range check (rear_brakes is null or (rear_brakes <> 'NaN' and (rear_brakes between 0 and 100000 and rear_brakes = trunc(rear_brakes)))) not valid;

alter table public.front_end_team_advisor_surveys
  drop constraint front_end_team_advisor_surveys_month_check,
  drop constraint front_end_team_advisor_surveys_nps_score_check,
  add constraint front_end_team_advisor_surveys_year_in_range check (year between 2000 and 2100) not valid,
  add constraint front_end_team_advisor_surveys_month_in_range check (month between 1 and 12) not valid,
  add constraint front_end_team_advisor_surveys_mpi_media_in_range check (mpi_media is null or (mpi_media <> 'NaN' and mpi_media between 0 and 100)) not valid,
  add constraint front_end_team_advisor_surveys_nps_score_length check (nps_score is null or char_length(nps_score) <= 100) not valid,
  add constraint front_end_team_advisor_surveys_surveys_count_in_range check (surveys_count is null or (surveys_count <> 'NaN' and (surveys_count between 0 and 100000 and surveys_count = trunc(surveys_count)))) not valid,
  add constraint front_end_team_advisor_surveys_email_penetration_in_range check (email_penetration is null or (email_penetration <> 'NaN' and email_penetration between 0 and 100)) not valid;

alter table public.front_end_team_surveys
  drop constraint front_end_team_surveys_month_check,
  drop constraint front_end_team_surveys_nps_score_check,
  add constraint front_end_team_surveys_year_in_range check (year between 2000 and 2100) not valid,
  add constraint front_end_team_surveys_month_in_range check (month between 1 and 12) not valid,
  add constraint front_end_team_surveys_mpi_media_in_range check (mpi_media is null or (mpi_media <> 'NaN' and mpi_media between 0 and 100)) not valid,
  add constraint front_end_team_surveys_nps_score_length check (nps_score is null or char_length(nps_score) <= 100) not valid,
  add constraint front_end_team_surveys_surveys_count_in_range check (surveys_count is null or (surveys_count <> 'NaN' and (surveys_count between 0 and 100000 and surveys_count = trunc(surveys_count)))) not valid,
  add constraint front_end_team_surveys_email_penetration_in_range check (email_penetration is null or (email_penetration <> 'NaN' and email_penetration between 0 and 100)) not valid;

alter table public.front_end_team_targets
  drop constraint front_end_team_targets_year_check,
  drop constraint front_end_team_targets_month_check,
  add constraint front_end_team_targets_year_in_range check (year between 2000 and 2100) not valid,
  add constraint front_end_team_targets_month_in_range check (month between 1 and 12) not valid,
  add constraint front_end_team_targets_total_sales_per_ro_in_range check (total_sales_per_ro is null or (total_sales_per_ro <> 'NaN' and total_sales_per_ro between 0 and 100000)) not valid,
  add constraint front_end_team_targets_ros_per_day_in_range check (ros_per_day is null or (ros_per_day <> 'NaN' and ros_per_day between 0 and 10000)) not valid,
  add constraint front_end_team_targets_labour_per_ro_in_range check (labour_per_ro is null or (labour_per_ro <> 'NaN' and labour_per_ro between 0 and 100000)) not valid,
  add constraint front_end_team_targets_labour_per_day_in_range check (labour_per_day is null or (labour_per_day <> 'NaN' and labour_per_day between 0 and 1500000)) not valid,
  add constraint front_end_team_targets_cp_ros_per_day_in_range check (cp_ros_per_day is null or (cp_ros_per_day <> 'NaN' and cp_ros_per_day between 0 and 10000)) not valid,
  add constraint front_end_team_targets_cp_hours_per_ro_in_range check (cp_hours_per_ro is null or (cp_hours_per_ro <> 'NaN' and cp_hours_per_ro between 0 and 50)) not valid,
  add constraint front_end_team_targets_elr_in_range check (elr is null or (elr <> 'NaN' and elr between 0 and 1000)) not valid;

alter table public.advisor_survey_data
  drop constraint advisor_survey_data_year_check,
  drop constraint advisor_survey_data_month_check,
  drop constraint advisor_survey_data_nps_score_check,
  add constraint advisor_survey_data_year_in_range check (year between 2000 and 2100) not valid,
  add constraint advisor_survey_data_month_in_range check (month between 1 and 12) not valid,
  add constraint advisor_survey_data_mpi_media_in_range check (mpi_media is null or (mpi_media <> 'NaN' and mpi_media between 0 and 100)) not valid,
  add constraint advisor_survey_data_nps_score_length check (nps_score is null or char_length(nps_score) <= 100) not valid,
  add constraint advisor_survey_data_surveys_count_in_range check (surveys_count is null or (surveys_count <> 'NaN' and (surveys_count between 0 and 100000 and surveys_count = trunc(surveys_count)))) not valid,
  add constraint advisor_survey_data_email_penetration_in_range check (email_penetration is null or (email_penetration <> 'NaN' and email_penetration between 0 and 100)) not valid;


do $$
declare
  c record;
begin
  for c in
    select con.conrelid::regclass as table_name, con.conname as name
    from pg_catalog.pg_constraint con
    where con.connamespace = 'public'::regnamespace and con.contype = 'c' and not con.convalidated
      and (con.conname like '%\_in\_range' or con.conname like '%\_length')
    order by 1, 2
  loop
    begin
      execute format('alter table %s validate constraint %I', c.table_name, c.name);
    exception when check_violation then
      raise warning 'field limits: rows of % already break %; it applies to new writes until they are corrected',
        c.table_name, c.name;
    end;
  end loop;
end
$$;
