-- The dates that differ from a store's work pattern (store_settings.work_week): a holiday
-- closes a weekday, an extra opening opens a closed one. The screens take a month's work
-- days from the pattern and these when nobody has entered a week's work days, so a new
-- month is never empty. A closed month's calendar days are refused like its figures.

create table public.store_calendar_days (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  calendar_date date not null,
  year integer not null,
  is_work_day boolean,
  note text,
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint store_calendar_days_natural_key unique (store_id, calendar_date),
  constraint store_calendar_days_year_matches_date check (year = extract(year from calendar_date)::integer),
  constraint store_calendar_days_year_in_range check (year between 2000 and 2100),
  constraint store_calendar_days_note_length check (note is null or char_length(note) <= 200)
);

comment on column public.store_calendar_days.year is 'calendar_date''s year, kept so a device''s first sync can fetch recent years only.';
comment on column public.store_calendar_days.is_work_day is 'true: open on a day the work pattern closes; false: closed (a holiday); null: as the pattern says.';
comment on column public.store_calendar_days.note is 'A short name for the day ("Thanksgiving").';
comment on column public.store_calendar_days.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index store_calendar_days_sync on public.store_calendar_days (sync_xid, id);

alter table public.store_calendar_days enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.store_calendar_days
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.store_calendar_days
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.store_calendar_days
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.store_calendar_days from anon;
revoke delete, truncate, references, trigger on public.store_calendar_days from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.store_calendar_days
  for each row
  execute function private.stamp_sync_columns();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.store_calendar_days
  for each row
  when (old.id is distinct from new.id
        or old.calendar_date is distinct from new.calendar_date
        or old.store_id is distinct from new.store_id)
  execute function private.refuse_identity_change();
-- A closed month's figures refuse every change (23M01, "month closed by NAME on DATE").
create trigger refuse_closed_month before insert or delete or update on public.store_calendar_days
  for each row
  execute function private.refuse_closed_month();
create trigger record_change_delete after delete on public.store_calendar_days
  referencing old table as old_rows
  for each statement
  execute function private.record_changes();
-- Every change made through the API goes into the change history, once per statement.
create trigger record_change_insert after insert on public.store_calendar_days
  referencing new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_update after update on public.store_calendar_days
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function private.record_changes();

alter publication supabase_realtime add table public.store_calendar_days;

insert into private.synced_tables (name, key_columns) values ('store_calendar_days', array['store_id', 'calendar_date']);
