-- Demo data: two stores, three users (password demo1234) and about three months of
-- believable service-department figures for Demo Motors, ending yesterday, so every
-- screen has something to show. Values come from a fixed formula of the date (no
-- random()), so two seeded databases hold the same numbers for the same day.
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
                     'store_id', u.store_id, 'is_admin', u.is_admin),
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

-- Daily hours and sales: Monday to Saturday (Saturday about half a day), from the first
-- of the month two months back to yesterday. Northside gets a lighter copy so that store
-- isolation has rows to hide.
with params as (
  select s.store_id, s.scale,
         (date_trunc('month', current_date) - interval '2 months')::date as first_day,
         current_date - 1 as last_day
  from (values ('11111111-1111-4111-8111-111111111111'::uuid, 1.0),
               ('22222222-2222-4222-8222-222222222222'::uuid, 0.45)) as s(store_id, scale)
), days as (
  select p.store_id, p.scale, d::date as day
  from params p, generate_series(p.first_day, p.last_day, interval '1 day') as d
  where extract(isodow from d) <> 7
), categories as (
  select * from (values
    ('CP', 62, 28, 184.0), ('W', 14, 12, 168.0), ('I', 9, 8, 142.0)
  ) as c(code, base_hours, spread, rate)
), hours as (
  select d.store_id, d.day, c.code, c.rate,
         round((c.base_hours + (abs(hashtext(d.day::text || c.code)) % c.spread))
               * d.scale * case when extract(isodow from d.day) = 6 then 0.5 else 1 end, 1) as h
  from days d cross join categories c
)
insert into public.daily_inputs (
  store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value,
  week_of_month_display, year_week_actual
)
select h.store_id, h.day, extract(year from h.day)::integer, extract(month from h.day)::integer,
       extract(isodow from h.day)::integer, h.code, m.metric,
       case m.metric
         when 'hours' then h.h
         else round(h.h * (h.rate + (abs(hashtext(h.code || h.day::text)) % 17) - 8), 2)
       end,
       ((h.day - (date_trunc('month', h.day)::date
                  - extract(dow from date_trunc('month', h.day))::integer)) / 7) + 1,
       to_char(h.day, 'IYYY-IW')
from hours h cross join (values ('hours'), ('sales')) as m(metric)
on conflict do nothing;

-- Weeks (Sunday to Saturday) of the same period: six work days, and as many complete
-- days as have passed.
with weeks as (
  select distinct s.store_id,
         (d::date - extract(dow from d)::integer) as week_start
  from (values ('11111111-1111-4111-8111-111111111111'::uuid),
               ('22222222-2222-4222-8222-222222222222'::uuid)) as s(store_id),
       generate_series((date_trunc('month', current_date) - interval '2 months')::date,
                       current_date - 1, interval '1 day') as d
)
insert into public.weekly_store_performance (
  store_id, year, week_start_date, week_end_date, days_complete, work_days
)
select w.store_id, extract(year from w.week_start)::integer, w.week_start, w.week_start + 6,
       (select count(*)::integer
        from generate_series(greatest(w.week_start,
                                      (date_trunc('month', current_date) - interval '2 months')::date),
                             least(w.week_start + 6, current_date - 1), interval '1 day') as d
        where extract(isodow from d) <> 7),
       6
from weeks w
on conflict do nothing;

-- Targets for the three months; daysComplete is the month's Monday-to-Saturday count.
insert into public.monthly_targets (store_id, year, month, metric_key, target_value)
select '11111111-1111-4111-8111-111111111111', extract(year from m)::integer,
       extract(month from m)::integer, t.key,
       case t.key
         when 'daysComplete' then (
           select count(*) from generate_series(m, m + interval '1 month' - interval '1 day',
                                                interval '1 day') as d
           where extract(isodow from d) <> 7)
         else t.value
       end
from generate_series(date_trunc('month', current_date) - interval '2 months',
                     date_trunc('month', current_date), interval '1 month') as m,
     (values ('hoursPerDay', 100), ('salesPerDay', 17500), ('cpElr', 185), ('warrantyElr', 170),
             ('internalElr', 145), ('totalElr', 175), ('daysComplete', 0),
             ('rosOver45Days', 5), ('weOweOver30Days', 3), ('grossPerEmployee', 22000)) as t(key, value)
on conflict do nothing;

insert into public.monthly_labor_gross_inputs (
  store_id, month_year, labor_type, gross_value, direct_sales_value, return_on_sales
)
select '11111111-1111-4111-8111-111111111111', m::date, l.labor_type,
       round(l.gross * (0.95 + (abs(hashtext(m::text || l.labor_type)) % 10) / 100.0), 2),
       l.direct_sales, l.ros
from generate_series(date_trunc('month', current_date) - interval '2 months',
                     date_trunc('month', current_date) - interval '1 month', interval '1 month') as m,
     (values ('customerPay', 248000.0, null::numeric, 412.0), ('warranty', 51000.0, null, 96.0),
             ('internal', 26500.0, null, 71.0), ('sublet', 9800.0, 14200.0, 22.0),
             ('unappliedTime', -2100.0, null, null)) as l(labor_type, gross, direct_sales, ros)
on conflict do nothing;

-- Two years of monthly financials: all of last year, and this year up to last month.
insert into public.yearly_financial_inputs (
  store_id, year, month, sales, gp_net, ros, personnel_exp, semi_fixed_exp, fixed_exp
)
select '11111111-1111-4111-8111-111111111111', extract(year from m)::integer,
       extract(month from m)::integer, f.sales, round(f.sales * 0.72, 0), round(f.sales / 186, 0),
       round(f.sales * 0.72 * 0.31, 0), round(f.sales * 0.72 * 0.12, 0), 21500
from generate_series(date_trunc('year', current_date) - interval '1 year',
                     date_trunc('month', current_date) - interval '1 month', interval '1 month') as m,
     lateral (select 340000 + (abs(hashtext(m::text)) % 80000) as sales) as f
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

insert into public.front_end_team_daily_performance (
  store_id, advisor_id, entry_date, year, month, days_worked, pay_amount
)
select a.store_id, a.id, date_trunc('month', current_date)::date,
       extract(year from current_date)::integer, extract(month from current_date)::integer,
       (select count(*) from generate_series(date_trunc('month', current_date), current_date - 1,
                                             interval '1 day') as d
        where extract(isodow from d) not in (6, 7)),
       4200 + (abs(hashtext(a.advisor_name)) % 900)
from public.front_end_team_advisors a
where a.store_id = '11111111-1111-4111-8111-111111111111'
on conflict do nothing;

insert into public.advisor_survey_data (
  store_id, advisor_id, year, month, mpi_media, nps_score, surveys_count, email_penetration
)
select a.store_id, a.id, extract(year from current_date)::integer,
       extract(month from current_date)::integer,
       40 + abs(hashtext(a.id::text)) % 25, (70 + abs(hashtext(a.advisor_name)) % 20)::text,
       8 + abs(hashtext(a.employee_id)) % 12, 55 + abs(hashtext(a.advisor_name || 'e')) % 30
from public.front_end_team_advisors a
where a.store_id = '11111111-1111-4111-8111-111111111111'
on conflict do nothing;

-- The advisors' month so far: totals and op code counts, kept on the month's first day.
insert into public.front_end_team_advisor_totals (
  store_id, advisor_id, entry_date, year, month, parts_labour, labour_sales, total_ros,
  total_hours, cp_labour, cp_ros, cp_hours, internal_ros, warranty_ros
)
select a.store_id, a.id, date_trunc('month', current_date)::date,
       extract(year from current_date)::integer, extract(month from current_date)::integer,
       t.ros * 640, t.ros * 355, t.ros, t.ros * 2, t.cp_ros * 380, t.cp_ros, t.cp_ros * 2.5,
       t.ros - t.cp_ros - t.ros / 5, t.ros / 5
from public.front_end_team_advisors a,
     lateral (select 180 + abs(hashtext(a.advisor_name)) % 60 as ros) as r,
     lateral (select r.ros as ros, (r.ros * 6) / 10 as cp_ros) as t
where a.store_id = '11111111-1111-4111-8111-111111111111'
on conflict do nothing;

insert into public.front_end_team_advisor_op_codes (
  store_id, advisor_id, entry_date, year, month, alignments, tire_sales, batteries,
  auto_trans_service, coolant_service, diff_service, front_brakes, rear_brakes
)
select a.store_id, a.id, date_trunc('month', current_date)::date,
       extract(year from current_date)::integer, extract(month from current_date)::integer,
       12 + h % 9, 20 + h % 11, 4 + h % 6, 18 + h % 13, 9 + h % 5, 8 + h % 7, 5 + h % 4, 7 + h % 5
from public.front_end_team_advisors a,
     lateral (select abs(hashtext(a.employee_id)) as h) as x
where a.store_id = '11111111-1111-4111-8111-111111111111'
on conflict do nothing;
