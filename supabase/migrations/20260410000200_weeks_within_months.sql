-- A week's days complete and work days belong to one month. Before this a row covered a
-- whole Sunday-to-Saturday week, and a month summed every week that touched it, so a
-- week spanning two months counted in both (October 2026 showed 30 work days). From
-- here a row covers the part of a week inside one month: it starts on a Sunday or on the
-- 1st, and ends on the Saturday or on the month's last day, whichever comes first. The
-- grid still shows whole weeks; a week spanning two months has one row in each.
--
-- Rows already stored that span two months are split in two: the first part keeps the
-- row (and its id), the second part is a new row starting on the 1st. Their work days
-- and days complete are shared out by the store's work pattern (Monday to Saturday
-- unless the store set another): the earlier part takes the pattern's work days inside
-- it (never less than what the later part cannot hold), the later part the rest; days
-- complete are filled in date order the same way. The sum of each pair is the old row's
-- value, so no entered figure is lost; the screens show the parts for correction.

alter table public.weekly_store_performance
  drop constraint weekly_store_performance_week_start_date_check,
  drop constraint weekly_store_performance_week_is_seven_days,
  drop constraint weekly_store_performance_year_matches_week;

with crossing as (
  select w.id, w.store_id, w.week_start_date, w.week_end_date, w.days_complete, w.work_days,
         (w.week_start_date - (extract(day from w.week_start_date)::integer - 1)
            + interval '1 month')::date as next_first,
         coalesce(s.work_week, '1111110') as pattern
  from public.weekly_store_performance w
  left join public.store_settings s on s.store_id = w.store_id
  where extract(month from w.week_start_date) <> extract(month from w.week_end_date)
), sized as (
  select c.*,
         c.next_first - c.week_start_date as first_len,
         c.week_end_date - c.next_first + 1 as second_len,
         (select count(*)::integer
          from generate_series(c.week_start_date, c.next_first - 1, interval '1 day') as d
          where substr(c.pattern, extract(isodow from d)::integer, 1) = '1') as first_pattern
  from crossing c
), shared as (
  -- least() and greatest() skip nulls, so a figure nobody entered is kept null explicitly.
  select s.*,
         case when s.work_days is not null
           then least(s.work_days, s.first_len, greatest(s.first_pattern, s.work_days - s.second_len)) end as first_work
  from sized s
), ordered as (
  select sh.*,
         case when sh.days_complete is not null
           then least(sh.days_complete, sh.first_len,
                      greatest(coalesce(sh.first_work, sh.first_len), sh.days_complete - sh.second_len)) end as first_complete
  from shared sh
), second_parts as (
  insert into public.weekly_store_performance (store_id, year, week_start_date, week_end_date, days_complete, work_days)
  select sh.store_id, extract(year from sh.next_first)::integer, sh.next_first, sh.week_end_date,
         case when sh.days_complete is not null then least(sh.days_complete - sh.first_complete, sh.second_len) end,
         case when sh.work_days is not null then least(sh.work_days - sh.first_work, sh.second_len) end
  from ordered sh
  returning id
)
update public.weekly_store_performance w
set week_end_date = sh.next_first - 1,
    year = extract(year from sh.week_start_date)::integer,
    days_complete = sh.first_complete,
    work_days = sh.first_work
from ordered sh
where w.id = sh.id;

alter table public.weekly_store_performance
  add constraint weekly_store_performance_week_starts_on_sunday_or_first
    check (extract(dow from week_start_date) = 0 or extract(day from week_start_date) = 1),
  -- The Saturday of the start's week, or the last day of its month if that comes first.
  add constraint weekly_store_performance_week_ends_on_saturday_or_month_end
    check (week_end_date = least(
      week_start_date + (6 - extract(dow from week_start_date)::integer),
      (week_start_date - (extract(day from week_start_date)::integer - 1) + interval '1 month')::date - 1)),
  add constraint weekly_store_performance_year_matches_week
    check (year = extract(year from week_start_date)::integer),
  add constraint weekly_store_performance_week_holds_days_complete
    check (days_complete is null or days_complete <= week_end_date - week_start_date + 1),
  add constraint weekly_store_performance_week_holds_work_days
    check (work_days is null or work_days <= week_end_date - week_start_date + 1);
