-- Realtime change events for every synced table. The clients treat them only as a poke
-- to pull, so no payload is trusted; Realtime checks each subscriber's RLS before it
-- delivers a row.

alter publication supabase_realtime add table
  public.stores, public.store_settings, public.daily_inputs, public.weekly_store_performance,
  public.monthly_targets, public.monthly_labor_gross_inputs, public.yearly_financial_inputs,
  public.user_dashboard_preferences, public.front_end_team_advisors,
  public.front_end_team_daily_performance, public.front_end_team_advisor_totals,
  public.front_end_team_totals, public.front_end_team_advisor_op_codes,
  public.front_end_team_op_codes, public.front_end_team_advisor_surveys,
  public.front_end_team_surveys, public.front_end_team_targets, public.advisor_survey_data;
