-- Demo data: two stores, three users (password demo1234), and the service department's
-- figures from January of last year to yesterday, so every screen has something to show.
-- Runs only on an empty database (the embedded stack checks); every insert also skips
-- rows that already exist.

insert into public.stores (id, name, subdomain) values
  ('11111111-1111-4111-8111-111111111111', 'Demo Motors', 'demo-motors'),
  ('22222222-2222-4222-8222-222222222222', 'Northside Auto Service', 'northside')
on conflict do nothing;

insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at
)
select '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email,
  extensions.crypt('demo1234', extensions.gen_salt('bf', 10)), now(),
  jsonb_build_object('provider', 'email', 'providers', jsonb_build_array('email'),
                     'store_id', u.store_id, 'is_admin', u.is_admin,
                     'firstName', u.first_name, 'lastName', u.last_name, 'displayName', u.display_name),
  jsonb_build_object('store_id', u.store_id, 'is_admin', u.is_admin,
                     'firstName', u.first_name, 'lastName', u.last_name, 'displayName', u.display_name),
  now(), now()
from (values
  ('aaaaaaaa-0000-4000-8000-000000000001'::uuid, 'admin@example.com',
   '11111111-1111-4111-8111-111111111111', true, 'Alex', 'Admin', 'Alex'),
  ('aaaaaaaa-0000-4000-8000-000000000002'::uuid, 'manager@example.com',
   '11111111-1111-4111-8111-111111111111', false, 'Morgan', 'Manager', null),
  ('aaaaaaaa-0000-4000-8000-000000000003'::uuid, 'other@example.com',
   '22222222-2222-4222-8222-222222222222', false, 'Oli', 'Other', null)
) as u(id, email, store_id, is_admin, first_name, last_name, display_name)
on conflict do nothing;

insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
select u.id::text, u.id,
  jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true), 'email', now(), now()
from auth.users u
where u.email in ('admin@example.com', 'manager@example.com', 'other@example.com')
on conflict do nothing;

insert into public.store_settings (
  store_id, labour_rate, warranty_rate, internal_rate, stalls, journeyman_technicians,
  apprentice_technicians, lube_techs, service_advisors, appt_coordinator, dispatcher, service_manager
) values
  ('11111111-1111-4111-8111-111111111111', 189.95, 172.50, 145.00, 24, 14, 4, 3, 5, 1, 1, 1),
  ('22222222-2222-4222-8222-222222222222', 165.00, 150.00, 120.00, 12, 7, 2, 2, 3, 1, 0, 1)
on conflict do nothing;

-- The figures come from one model of a believable store, so every screen agrees with
-- every other for every month shown, from January of last year to yesterday:
--  * open Monday to Saturday (Saturday a half day), closed Sundays and six public
--    holidays a year, kept as the store's calendar so work days follow them;
--  * daily hours by labour category with seasonal volume (slow winters, a busy spring)
--    and this year a few percent above last, sold at category rates near the store's
--    door rates (customer pay highest, internal lowest);
--  * weeks entered as a manager would: the part of each week inside its month, its
--    work days and the days completed so far;
--  * each month's repair orders, gross, sublet and unapplied time derived from the
--    month's hours and sales, the yearly financial month equal to the monthly table's
--    totals (its expenses posted when the month has ended), and the advisors' figures
--    sharing out the month's repair orders, hours and sales.
-- Noise comes from hashtext() of fixed strings, not random(): two seeded databases hold
-- the same numbers for the same day. Northside is a lighter copy of the same model.

create temporary table demo_store (store_id uuid primary key, scale numeric not null);
insert into demo_store values
  ('11111111-1111-4111-8111-111111111111', 1.0),
  ('22222222-2222-4222-8222-222222222222', 0.45);

create temporary table demo_period as
select make_date(extract(year from current_date)::integer - 1, 1, 1) as first_day,
       current_date - 1 as last_day,
       (date_trunc('month', current_date::timestamp) + interval '1 month')::date - 1 as month_end;

-- Six public holidays in each of the two years: New Year, Memorial Day (last Monday of
-- May), Independence Day, Labor Day (first Monday of September), Thanksgiving (fourth
-- Thursday of November) and Christmas.
create temporary table demo_holiday as
select h.day, h.note
from generate_series(extract(year from current_date)::integer - 1, extract(year from current_date)::integer) as y(y)
cross join lateral (values
  (make_date(y.y, 1, 1), 'New Year''s Day'),
  (make_date(y.y, 5, 31) - (extract(isodow from make_date(y.y, 5, 31))::integer - 1), 'Memorial Day'),
  (make_date(y.y, 7, 4), 'Independence Day'),
  (make_date(y.y, 9, 1) + (8 - extract(isodow from make_date(y.y, 9, 1))::integer) % 7, 'Labor Day'),
  (make_date(y.y, 11, 1) + (11 - extract(isodow from make_date(y.y, 11, 1))::integer) % 7 + 21, 'Thanksgiving Day'),
  (make_date(y.y, 12, 25), 'Christmas Day')
) as h(day, note);

-- Every day from the first of the period to the end of this month, open or not.
create temporary table demo_calendar as
select d::date as day,
       extract(isodow from d)::integer <> 7 and d::date not in (select day from demo_holiday) as open,
       d::date - (extract(dow from d)::integer) as week_sunday,
       date_trunc('month', d)::date as month_first
from demo_period p, generate_series(p.first_day, p.month_end, interval '1 day') as d;

-- A month's volume against the yearly average (service is slow after the holidays and
-- busy in spring), and this year's growth over last.
create temporary table demo_season (month integer primary key, factor numeric not null);
insert into demo_season values
  (1, 0.88), (2, 0.91), (3, 1.03), (4, 1.06), (5, 1.07), (6, 1.04),
  (7, 0.99), (8, 1.02), (9, 0.98), (10, 1.03), (11, 0.96), (12, 0.90);

create temporary table demo_value as
select s.store_id, c.day, k.code,
       round((k.base_hours + abs(hashtext(c.day::text || k.code)) % k.spread)
             * s.scale * z.factor
             * case when extract(year from c.day) = extract(year from current_date) then 1.04 else 1.0 end
             * case when extract(isodow from c.day) = 6 then 0.5 else 1 end, 1) as hours,
       k.rate + (abs(hashtext(k.code || c.day::text)) % 17) - 8 as rate
from demo_store s
cross join demo_calendar c
cross join (values ('CP', 60, 27, 184), ('W', 14, 11, 168), ('I', 9, 7, 142)) as k(code, base_hours, spread, rate)
join demo_season z on z.month = extract(month from c.day)::integer
where c.open and c.day <= (select last_day from demo_period);

insert into public.store_calendar_days (store_id, calendar_date, year, is_work_day, note)
select s.store_id, h.day, extract(year from h.day)::integer, false, h.note
from demo_store s cross join demo_holiday h
on conflict do nothing;

insert into public.daily_inputs (
  store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value,
  week_of_month_display, year_week_actual
)
select v.store_id, v.day, extract(year from v.day)::integer, extract(month from v.day)::integer,
       extract(isodow from v.day)::integer, v.code, m.metric,
       case m.metric when 'hours' then v.hours else round(v.hours * v.rate, 2) end,
       ((v.day - (date_trunc('month', v.day)::date - extract(dow from date_trunc('month', v.day))::integer)) / 7) + 1,
       to_char(v.day, 'IYYY-IW')
from demo_value v cross join (values ('hours'), ('sales')) as m(metric)
on conflict do nothing;

-- The part of each week inside its month that has begun: its work days, and the days
-- of them completed before today.
insert into public.weekly_store_performance (store_id, year, week_start_date, week_end_date, days_complete, work_days)
select s.store_id, extract(year from p.part_start)::integer, p.part_start, p.part_end, p.complete, p.work
from demo_store s
cross join (
  select greatest(c.week_sunday, c.month_first) as part_start,
         max(c.day) as part_end,
         count(*) filter (where c.open)::integer as work,
         count(*) filter (where c.open and c.day < current_date)::integer as complete
  from demo_calendar c
  group by 1
) as p
where p.part_start < current_date
on conflict do nothing;

-- Each month's figures as the daily grid gives them (up to yesterday), and its work days.
create temporary table demo_month as
with days as (
  select month_first,
         count(*) filter (where open)::integer as work_days,
         count(*) filter (where open and day < current_date)::integer as days_complete
  from demo_calendar group by month_first
), sums as (
  select store_id, date_trunc('month', day)::date as month_first,
         sum(hours) filter (where code = 'CP') as cp_hours, sum(round(hours * rate, 2)) filter (where code = 'CP') as cp_sales,
         sum(hours) filter (where code = 'W') as w_hours, sum(round(hours * rate, 2)) filter (where code = 'W') as w_sales,
         sum(hours) filter (where code = 'I') as i_hours, sum(round(hours * rate, 2)) filter (where code = 'I') as i_sales
  from demo_value group by 1, 2
)
select s.store_id, s.scale, d.month_first,
       extract(year from d.month_first)::integer as year,
       extract(month from d.month_first)::integer as month,
       d.work_days, d.days_complete,
       coalesce(v.cp_hours, 0) as cp_hours, coalesce(v.cp_sales, 0) as cp_sales,
       coalesce(v.w_hours, 0) as w_hours, coalesce(v.w_sales, 0) as w_sales,
       coalesce(v.i_hours, 0) as i_hours, coalesce(v.i_sales, 0) as i_sales
from demo_store s
cross join days d
left join sums v on v.store_id = s.store_id and v.month_first = d.month_first
where d.month_first < current_date;

-- Repair orders, gross, sublet and unapplied time of each month, from its hours and sales;
-- each margin moves month to month within its labour type's usual band (to the hundredth
-- of a point, as real gross does, never a whole percent, on purpose).
create temporary table demo_gross as
select m.*,
       round(m.cp_hours / (1.95 + (abs(hashtext(m.month_first::text || 'cpro')) % 30) / 100.0)) as cp_ros,
       round(m.w_hours / 1.6) as w_ros,
       round(m.i_hours / 1.3) as i_ros,
       round(m.cp_sales * (0.72 + (abs(hashtext(m.month_first::text || 'cpg')) % 600) / 10000.0), 2) as cp_gross,
       round(m.w_sales * (0.68 + (abs(hashtext(m.month_first::text || 'wg')) % 500) / 10000.0), 2) as w_gross,
       round(m.i_sales * (0.58 + (abs(hashtext(m.month_first::text || 'ig')) % 500) / 10000.0), 2) as i_gross,
       s.sublet_sales,
       round(s.sublet_sales * (0.21 + (abs(hashtext(m.month_first::text || 'subg')) % 800) / 10000.0), 2) as sublet_gross,
       -round((m.cp_sales + m.w_sales + m.i_sales) * (0.009 + (abs(hashtext(m.month_first::text || 'una')) % 600) / 100000.0), 2) as unapplied_gross
from demo_month m
cross join lateral (
  select round((m.cp_sales + m.w_sales + m.i_sales) * (0.03 + (abs(hashtext(m.month_first::text || 'sub')) % 150) / 10000.0), 2) as sublet_sales
) as s;

insert into public.monthly_labor_gross_inputs (store_id, month_year, labor_type, gross_value, direct_sales_value, return_on_sales)
select g.store_id, g.month_first, l.labor_type, l.gross, l.direct_sales, l.ros
from demo_gross g
cross join lateral (values
  ('customerPay', g.cp_gross, null::numeric, g.cp_ros),
  ('warranty', g.w_gross, null, g.w_ros),
  ('internal', g.i_gross, null, g.i_ros),
  ('sublet', g.sublet_gross, g.sublet_sales, round(g.cp_ros * 0.05)),
  ('unappliedTime', g.unapplied_gross, null, null)
) as l(labor_type, gross, direct_sales, ros)
where g.days_complete > 0
on conflict do nothing;

-- The financial month is the monthly table's totals (labour and sublet sales, all gross,
-- hours); expenses are posted once the month has ended.
insert into public.yearly_financial_inputs (store_id, year, month, sales, gp_net, ros, personnel_exp, semi_fixed_exp, fixed_exp)
select g.store_id, g.year, g.month,
       g.cp_sales + g.w_sales + g.i_sales + g.sublet_sales,
       g.cp_gross + g.w_gross + g.i_gross + g.sublet_gross + g.unapplied_gross,
       g.cp_hours + g.w_hours + g.i_hours,
       e.personnel, e.semi_fixed, e.fixed
from demo_gross g
cross join lateral (
  select case when g.days_complete = g.work_days then round((g.cp_gross + g.w_gross + g.i_gross) * (0.30 + (abs(hashtext(g.month_first::text || 'pers')) % 5) / 100.0), 0) end as personnel,
         case when g.days_complete = g.work_days then round((g.cp_gross + g.w_gross + g.i_gross) * (0.11 + (abs(hashtext(g.month_first::text || 'semi')) % 3) / 100.0), 0) end as semi_fixed,
         case when g.days_complete = g.work_days then round(21500 * g.scale, 0) end as fixed
) as e
where g.days_complete > 0
on conflict do nothing;

-- Targets for every month of the period and the next (a manager sets them ahead); no
-- Total ELR target, so the tile weighs the category targets by the month's hours.
insert into public.monthly_targets (store_id, year, month, metric_key, target_value)
select s.store_id, extract(year from m)::integer, extract(month from m)::integer, t.key,
       case t.key
         when 'hoursPerDay' then round(100 * s.scale)
         when 'salesPerDay' then round(17500 * s.scale, -2)
         when 'shopSupplies' then round((select count(*) from demo_calendar c where c.month_first = m::date and c.open) * 820 * s.scale, -2)
         else t.value
       end
from demo_store s
cross join generate_series((select first_day from demo_period), date_trunc('month', current_date::timestamp), interval '1 month') as m
cross join (values ('hoursPerDay', 0), ('salesPerDay', 0), ('cpElr', 185), ('warrantyElr', 170), ('internalElr', 145),
                   ('cpHoursPerRo', 2.2), ('rosOver30Days', 8), ('weOweOver30Days', 3), ('shopSupplies', 0),
                   ('rosOver45Days', 5), ('grossPerEmployee', 22000)) as t(key, value)
on conflict do nothing;

-- Open repair orders and due bills over 30 days, and shop supplies, counted at each
-- month's end (this month: yesterday).
insert into public.monthly_operational_inputs (store_id, year, month, ros_over_30_days, due_bills_over_30_days, shop_supplies, as_of_date)
select g.store_id, g.year, g.month,
       round((4 + abs(hashtext(g.month_first::text || 'ro30')) % 9) * g.scale),
       round((1 + abs(hashtext(g.month_first::text || 'due')) % 5) * g.scale),
       round(g.cp_sales * (0.055 + (abs(hashtext(g.month_first::text || 'shop')) % 2) / 100.0), 2),
       least((g.month_first + interval '1 month')::date - 1, current_date - 1)
from demo_gross g
where g.days_complete > 0
on conflict do nothing;

insert into public.front_end_team_advisors (id, store_id, advisor_name, employee_id, hire_date, created_at)
values
  ('cccccccc-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111',
   'Jordan Lee', 'SA-101', '2019-04-15', now() - interval '3 minutes'),
  ('cccccccc-0000-4000-8000-000000000002', '11111111-1111-4111-8111-111111111111',
   'Priya Patel', 'SA-102', '2021-09-01', now() - interval '2 minutes'),
  ('cccccccc-0000-4000-8000-000000000003', '11111111-1111-4111-8111-111111111111',
   'Sam Carter', 'SA-103', '2024-02-12', now() - interval '1 minute')
on conflict do nothing;


-- Each advisor works in a way of their own, so the score card compares people: a share
-- of the drive's repair orders, the hours sold per RO and the labour rate against the
-- store's (the senior advisor sells more time per visit at a fuller rate, the newest
-- less), the share of customers who return a survey, and a habit of days off; each
-- month moves a few percent around those. Their figures are shares of the month's own
-- repair orders, hours and sales (the last advisor takes what rounding leaves), so the
-- team still adds up to the monthly table and the daily grid.
create temporary table demo_advisor_trait (
  employee_id text primary key, position integer not null, ro_weight numeric not null,
  hours_per_ro numeric not null, rate numeric not null, survey_rate numeric not null,
  days_off_least integer not null, days_off_spread integer not null, score_offset integer not null
);
insert into demo_advisor_trait values
  ('SA-101', 1, 0.36, 1.14, 1.035, 0.075, 0, 2, 6),
  ('SA-102', 2, 0.34, 1.00, 1.000, 0.055, 0, 3, 0),
  ('SA-103', 3, 0.30, 0.84, 0.960, 0.035, 1, 3, -7);

-- A month's weights: repair orders, then hours (orders × hours per RO) and sales (hours
-- × rate), each with the month's own swing of a few percent.
create temporary table demo_advisor_month as
with weighted as (
  select a.id as advisor_id, a.store_id, a.advisor_name, a.employee_id, g.month_first, g.year, g.month,
         g.days_complete, g.work_days, t.position, t.survey_rate, t.days_off_least, t.days_off_spread, t.score_offset,
         g.cp_ros, g.w_ros, g.i_ros, g.cp_hours, g.cp_sales,
         g.cp_hours + g.w_hours + g.i_hours as hours,
         g.cp_sales + g.w_sales + g.i_sales as labour_sales,
         t.ro_weight * (0.94 + (abs(hashtext(a.employee_id || g.month_first::text || 'ros')) % 1200) / 10000.0) as w_ros_weight,
         t.hours_per_ro * (0.95 + (abs(hashtext(a.employee_id || g.month_first::text || 'hpr')) % 1000) / 10000.0) as w_hpr,
         t.rate * (0.985 + (abs(hashtext(a.employee_id || g.month_first::text || 'elr')) % 300) / 10000.0) as w_rate
  from public.front_end_team_advisors a
  join demo_advisor_trait t on t.employee_id = a.employee_id
  join demo_gross g on g.store_id = a.store_id
  where a.store_id = '11111111-1111-4111-8111-111111111111' and g.days_complete > 0
)
select w.*,
       w.w_ros_weight / sum(w.w_ros_weight) over month as ro_share,
       w.w_ros_weight * w.w_hpr / sum(w.w_ros_weight * w.w_hpr) over month as hours_share,
       w.w_ros_weight * w.w_hpr * w.w_rate / sum(w.w_ros_weight * w.w_hpr * w.w_rate) over month as sales_share
from weighted w
window month as (partition by w.store_id, w.month_first);

-- Each advisor's share, rounded; the last advisor takes the rest so the team adds up.
create temporary table demo_advisor_figures as
with rounded as (
  select m.*,
         round(m.cp_ros * m.ro_share) as r_cp_ros, round(m.w_ros * m.ro_share) as r_w_ros, round(m.i_ros * m.ro_share) as r_i_ros,
         round(m.cp_hours * m.hours_share, 1) as r_cp_hours, round(m.hours * m.hours_share, 1) as r_hours,
         round(m.cp_sales * m.sales_share, 2) as r_cp_sales, round(m.labour_sales * m.sales_share, 2) as r_labour_sales
  from demo_advisor_month m
)
select r.*,
       case when r.position < 3 then r.r_cp_ros else r.cp_ros - sum(r.r_cp_ros) filter (where r.position < 3) over month end as adv_cp_ros,
       case when r.position < 3 then r.r_w_ros else r.w_ros - sum(r.r_w_ros) filter (where r.position < 3) over month end as adv_w_ros,
       case when r.position < 3 then r.r_i_ros else r.i_ros - sum(r.r_i_ros) filter (where r.position < 3) over month end as adv_i_ros,
       case when r.position < 3 then r.r_cp_hours else r.cp_hours - sum(r.r_cp_hours) filter (where r.position < 3) over month end as adv_cp_hours,
       case when r.position < 3 then r.r_cp_sales else r.cp_sales - sum(r.r_cp_sales) filter (where r.position < 3) over month end as adv_cp_sales,
       case when r.position < 3 then r.r_hours else r.hours - sum(r.r_hours) filter (where r.position < 3) over month end as adv_hours,
       case when r.position < 3 then r.r_labour_sales else r.labour_sales - sum(r.r_labour_sales) filter (where r.position < 3) over month end as adv_labour_sales,
       greatest(r.days_complete - r.days_off_least - abs(hashtext(r.employee_id || r.month_first::text)) % r.days_off_spread, 0) as days_worked
from rounded r
window month as (partition by r.store_id, r.month_first);

insert into public.front_end_team_daily_performance (store_id, advisor_id, entry_date, year, month, days_worked, pay_amount)
select f.store_id, f.advisor_id, f.month_first, f.year, f.month, f.days_worked,
       round((4200 + abs(hashtext(f.advisor_name)) % 900) * f.days_worked / f.work_days, 2)
from demo_advisor_figures f
on conflict do nothing;

insert into public.front_end_team_advisor_totals (
  store_id, advisor_id, entry_date, year, month, parts_labour, labour_sales, total_ros,
  total_hours, cp_labour, cp_ros, cp_hours, internal_ros, warranty_ros
)
select f.store_id, f.advisor_id, f.month_first, f.year, f.month,
       round(f.adv_labour_sales * 1.85, 2), f.adv_labour_sales, f.adv_cp_ros + f.adv_w_ros + f.adv_i_ros,
       f.adv_hours, f.adv_cp_sales, f.adv_cp_ros, f.adv_cp_hours, f.adv_i_ros, f.adv_w_ros
from demo_advisor_figures f
on conflict do nothing;

insert into public.front_end_team_advisor_op_codes (
  store_id, advisor_id, entry_date, year, month, alignments, tire_sales, batteries,
  auto_trans_service, coolant_service, diff_service, front_brakes, rear_brakes
)
select f.store_id, f.advisor_id, f.month_first, f.year, f.month,
       round(r.ros * (0.07 + x.h % 5 / 100.0)), round(r.ros * (0.12 + x.h % 4 / 100.0)),
       round(r.ros * (0.02 + x.h % 3 / 100.0)), round(r.ros * (0.10 + x.h % 8 / 100.0)),
       round(r.ros * (0.04 + x.h % 3 / 100.0)), round(r.ros * (0.04 + x.h % 3 / 100.0)),
       round(r.ros * (0.02 + x.h % 3 / 100.0)), round(r.ros * (0.03 + x.h % 4 / 100.0))
from demo_advisor_figures f,
     lateral (select abs(hashtext(f.employee_id || f.month_first::text || 'ops')) as h) as x,
     lateral (select f.adv_cp_ros + f.adv_w_ros + f.adv_i_ros as ros) as r
on conflict do nothing;

insert into public.advisor_survey_data (store_id, advisor_id, year, month, mpi_media, nps_score, surveys_count, email_penetration)
select f.store_id, f.advisor_id, f.year, f.month,
       40 + f.score_offset + abs(hashtext(f.advisor_id::text || f.month_first::text)) % 25,
       (72 + f.score_offset + abs(hashtext(f.advisor_name || f.month_first::text)) % 16)::text,
       round((f.adv_cp_ros + f.adv_w_ros + f.adv_i_ros) * f.survey_rate * (0.9 + (abs(hashtext(f.employee_id || f.month_first::text || 'srv')) % 20) / 100.0)),
       55 + abs(hashtext(f.advisor_name || 'e' || f.month_first::text)) % 30
from demo_advisor_figures f
on conflict do nothing;

drop table demo_advisor_figures, demo_advisor_month, demo_advisor_trait, demo_gross, demo_month, demo_value, demo_season,
  demo_calendar, demo_holiday, demo_period, demo_store;
