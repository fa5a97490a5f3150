-- Days complete and work days per store and week part: the part of a Sunday-to-Saturday
-- week inside one month. A part starts on a Sunday or on the 1st and ends on the Saturday
-- or on the month's last day, whichever comes first, so a week spanning two months has a
-- row in each and no month counts another's days.

create table public.weekly_store_performance (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  year integer not null,
  week_start_date date not null,
  week_end_date date not null,
  days_complete integer,
  work_days integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint weekly_store_performance_natural_key unique (store_id, week_start_date),
  constraint weekly_store_performance_days_complete_in_range check (days_complete is null or days_complete between 0 and 7),
  constraint weekly_store_performance_work_days_in_range check (work_days is null or work_days between 0 and 7),
  constraint weekly_store_performance_year_in_range check (year between 2000 and 2100),
  constraint weekly_store_performance_week_starts_on_sunday_or_first check (extract(dow from week_start_date) = 0 or extract(day from week_start_date) = 1),
  constraint weekly_store_performance_week_ends_on_saturday_or_month_end check (week_end_date = least(
      week_start_date + (6 - extract(dow from week_start_date)::integer),
      (week_start_date - (extract(day from week_start_date)::integer - 1) + interval '1 month')::date - 1)),
  constraint weekly_store_performance_year_matches_week check (year = extract(year from week_start_date)::integer),
  constraint weekly_store_performance_week_holds_days_complete check (days_complete is null or days_complete <= week_end_date - week_start_date + 1),
  constraint weekly_store_performance_week_holds_work_days check (work_days is null or work_days <= week_end_date - week_start_date + 1)
);

comment on column public.weekly_store_performance.year is 'week_start_date''s year.';
comment on column public.weekly_store_performance.week_start_date is 'The week part''s first day: a Sunday, or the 1st of the month.';
comment on column public.weekly_store_performance.week_end_date is 'The week part''s last day: the Saturday, or the month''s last day when it comes first.';
comment on column public.weekly_store_performance.days_complete is 'Days of the week part already worked, as entered (null: not entered).';
comment on column public.weekly_store_performance.work_days is 'Days the store works in the week part, as entered (null: the store''s work pattern decides).';
comment on column public.weekly_store_performance.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index weekly_store_performance_sync on public.weekly_store_performance (sync_xid, id);

alter table public.weekly_store_performance enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.weekly_store_performance
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.weekly_store_performance
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.weekly_store_performance
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.weekly_store_performance from anon;
revoke delete, truncate, references, trigger on public.weekly_store_performance from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.weekly_store_performance
  for each row
  execute function private.stamp_sync_columns();
-- A closed month's figures refuse every change (23M01, "month closed by NAME on DATE").
create trigger refuse_closed_month before insert or delete or update on public.weekly_store_performance
  for each row
  execute function private.refuse_closed_month();
-- Every change made through the API goes into the change history, once per statement.
create trigger record_change_insert after insert on public.weekly_store_performance
  referencing new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_update after update on public.weekly_store_performance
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_delete after delete on public.weekly_store_performance
  referencing old table as old_rows
  for each statement
  execute function private.record_changes();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.weekly_store_performance
  for each row
  when (old.id is distinct from new.id
        or old.store_id is distinct from new.store_id
        or old.week_start_date is distinct from new.week_start_date)
  execute function private.refuse_identity_change();
-- created_at is when the row reached the server, whatever a request sends.
create trigger stamp_created_at_insert before insert on public.weekly_store_performance
  for each row when (new.created_at is distinct from now())
  execute function private.stamp_created_at();
create trigger stamp_created_at_update before update on public.weekly_store_performance
  for each row when (new.created_at is distinct from old.created_at)
  execute function private.stamp_created_at();

alter publication supabase_realtime add table public.weekly_store_performance;

insert into private.synced_tables (name, key_columns) values ('weekly_store_performance', array['store_id', 'week_start_date']);
