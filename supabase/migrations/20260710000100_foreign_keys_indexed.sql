-- Every foreign key gets an index that starts with its columns, in its order, so that
-- deleting a store or an advisor finds the rows that go with it by index instead of
-- reading whole tables (each cascade, and each check that nothing still refers to the
-- row, is such a lookup), and a read filtered on the key can use it too.
--
-- Three keys had none:
-- * front_end_team_advisors.store_id: walked by every store deletion, and the filter of
--   every read of a store's advisors (its row-level security is store_id = the caller's).
-- * user_dashboard_preferences.store_id: walked by every store deletion.
-- * the advisor key of the five tables of an advisor's figures, (advisor_id, store_id):
--   walked by every advisor deletion. Their natural keys, (store_id, advisor_id, ...),
--   already hold both columns first, only in the other order. Rather than a second index
--   on each table, the key is declared in the natural key's order, referencing the
--   advisors' (store_id, id): the same pairs, the same cascade, the same constraint
--   names. That unique pair replaces (id, store_id), which nothing references any more,
--   and is the index the advisors' store_id key needed.

create index user_dashboard_preferences_store on public.user_dashboard_preferences (store_id);

-- The old keys go first: a key added while the (id, store_id) pair still exists would be
-- tied to it (Postgres accepts a unique index on the same columns in any order).
alter table public.front_end_team_daily_performance drop constraint front_end_team_daily_performance_advisor;
alter table public.front_end_team_advisor_totals drop constraint front_end_team_advisor_totals_advisor;
alter table public.front_end_team_advisor_op_codes drop constraint front_end_team_advisor_op_codes_advisor;
alter table public.front_end_team_advisor_surveys drop constraint front_end_team_advisor_surveys_advisor;
alter table public.advisor_survey_data drop constraint advisor_survey_data_advisor;
alter table public.front_end_team_advisors drop constraint front_end_team_advisors_id_store;

alter table public.front_end_team_advisors
  add constraint front_end_team_advisors_store_id_id unique (store_id, id);

alter table public.front_end_team_daily_performance
  add constraint front_end_team_daily_performance_advisor foreign key (store_id, advisor_id)
    references public.front_end_team_advisors (store_id, id) on delete cascade;
alter table public.front_end_team_advisor_totals
  add constraint front_end_team_advisor_totals_advisor foreign key (store_id, advisor_id)
    references public.front_end_team_advisors (store_id, id) on delete cascade;
alter table public.front_end_team_advisor_op_codes
  add constraint front_end_team_advisor_op_codes_advisor foreign key (store_id, advisor_id)
    references public.front_end_team_advisors (store_id, id) on delete cascade;
alter table public.front_end_team_advisor_surveys
  add constraint front_end_team_advisor_surveys_advisor foreign key (store_id, advisor_id)
    references public.front_end_team_advisors (store_id, id) on delete cascade;
alter table public.advisor_survey_data
  add constraint advisor_survey_data_advisor foreign key (store_id, advisor_id)
    references public.front_end_team_advisors (store_id, id) on delete cascade;
