-- A store's work pattern: the weekdays it is open (store_settings.work_week, Monday
-- first, '1' open and '0' closed; null means the default, Monday to Saturday) and the
-- dates that differ from it (store_calendar_days: a holiday closes a weekday, an extra
-- opening opens a closed one). The screens take a month's work days from these when
-- nobody has entered a week's work days, so a new month is never empty.

alter table public.store_settings
  add column work_week text,
  add constraint store_settings_work_week_check check (work_week is null or work_week ~ '^[01]{7}$');

create table public.store_calendar_days (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  calendar_date date not null,
  -- Kept with the date so that a device's first sync can fetch recent years only.
  year integer not null,
  -- true: open on a day the pattern closes; false: closed (a holiday); null: as the pattern says.
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

create index store_calendar_days_sync on public.store_calendar_days (sync_xid, id);

select private.make_store_scoped('public.store_calendar_days');

insert into private.synced_tables (name, key_columns) values
  ('store_calendar_days', array['store_id', 'calendar_date']);

alter publication supabase_realtime add table public.store_calendar_days;
