-- An advisor's days worked and pay, kept per advisor and day: a month's figure is the sum
-- of its days, and the tracker enters it on the month's first day.
-- Every table of the front-end team is store-scoped like the rest of the store's data;
-- an advisor's rows name the advisor with the store (store_id, advisor_id), so a row can
-- only belong to an advisor of its own store.

create table public.front_end_team_daily_performance (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  advisor_id uuid not null,
  entry_date date not null,
  year integer not null,
  month integer not null,
  days_worked numeric(6, 2),
  pay_amount numeric(12, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint front_end_team_daily_performance_natural_key unique (store_id, advisor_id, entry_date),
  constraint front_end_team_daily_performance_advisor foreign key (store_id, advisor_id) references public.front_end_team_advisors (store_id, id) on delete cascade,
  constraint front_end_team_daily_performance_calendar_matches_date check (
    year = extract(year from entry_date)::integer and month = extract(month from entry_date)::integer
  ),
  constraint front_end_team_daily_performance_days_worked_in_range check (days_worked is null or (days_worked <> 'NaN' and days_worked between 0 and 31)),
  constraint front_end_team_daily_performance_month_in_range check (month between 1 and 12),
  constraint front_end_team_daily_performance_pay_amount_in_range check (pay_amount is null or (pay_amount <> 'NaN' and pay_amount between 0 and 1000000)),
  constraint front_end_team_daily_performance_year_in_range check (year between 2000 and 2100)
);

comment on column public.front_end_team_daily_performance.entry_date is 'The day the figures are for; the tracker enters a month''s figures on its first day.';
comment on column public.front_end_team_daily_performance.days_worked is 'Days the advisor worked (half days count).';
comment on column public.front_end_team_daily_performance.pay_amount is 'The advisor''s pay, in dollars.';
comment on column public.front_end_team_daily_performance.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index front_end_team_daily_performance_sync on public.front_end_team_daily_performance (sync_xid, id);

alter table public.front_end_team_daily_performance enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.front_end_team_daily_performance
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.front_end_team_daily_performance
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.front_end_team_daily_performance
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.front_end_team_daily_performance from anon;
revoke delete, truncate, references, trigger on public.front_end_team_daily_performance from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.front_end_team_daily_performance
  for each row
  execute function private.stamp_sync_columns();
-- A closed month's figures refuse every change (23M01, "month closed by NAME on DATE").
create trigger refuse_closed_month before insert or delete or update on public.front_end_team_daily_performance
  for each row
  execute function private.refuse_closed_month();
-- Every change made through the API goes into the change history, once per statement.
create trigger record_change_insert after insert on public.front_end_team_daily_performance
  referencing new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_update after update on public.front_end_team_daily_performance
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_delete after delete on public.front_end_team_daily_performance
  referencing old table as old_rows
  for each statement
  execute function private.record_changes();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.front_end_team_daily_performance
  for each row
  when (old.id is distinct from new.id
        or old.entry_date is distinct from new.entry_date
        or old.advisor_id is distinct from new.advisor_id
        or old.store_id is distinct from new.store_id)
  execute function private.refuse_identity_change();

alter publication supabase_realtime add table public.front_end_team_daily_performance;

insert into private.synced_tables (name, key_columns) values ('front_end_team_daily_performance', array['store_id', 'advisor_id', 'entry_date']);
