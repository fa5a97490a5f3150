-- One value per store, day, labour category (CP customer pay, W warranty, I internal)
-- and metric (hours or sales). The derived calendar columns must agree with
-- entry_date, so a client with a wrong clock or a bug cannot file a day in another week.

create table public.daily_inputs (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  entry_date date not null,
  year integer not null,
  month integer not null,
  day_of_week_iso integer not null,
  row_identifier text not null check (row_identifier in ('CP', 'W', 'I')),
  metric_type text not null check (metric_type in ('hours', 'sales')),
  value numeric(12, 2),
  week_of_month_display integer,
  year_week_actual text check (year_week_actual ~ '^[0-9]{4}-[0-9]{2}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint daily_inputs_natural_key unique (store_id, entry_date, row_identifier, metric_type),
  constraint daily_inputs_calendar_matches_date check (
    year = extract(year from entry_date)::integer
    and month = extract(month from entry_date)::integer
    and day_of_week_iso = extract(isodow from entry_date)::integer
  ),
  constraint daily_inputs_day_of_week_iso_in_range check (day_of_week_iso between 1 and 7),
  constraint daily_inputs_month_in_range check (month between 1 and 12),
  constraint daily_inputs_value_in_range check (value is null or (value <> 'NaN' and case metric_type
      when 'hours' then value between 0 and 1000
      when 'sales' then value between 0 and 500000
      else false
    end)),
  constraint daily_inputs_week_of_month_display_in_range check (week_of_month_display is null or week_of_month_display between 1 and 6),
  constraint daily_inputs_year_in_range check (year between 2000 and 2100)
);

comment on column public.daily_inputs.year is 'entry_date''s year, kept equal to it so a month is one index lookup.';
comment on column public.daily_inputs.month is 'entry_date''s month (1 to 12), kept equal to it.';
comment on column public.daily_inputs.day_of_week_iso is 'entry_date''s weekday, 1 Monday to 7 Sunday, kept equal to it.';
comment on column public.daily_inputs.row_identifier is 'The labour category: CP customer pay, W warranty, I internal.';
comment on column public.daily_inputs.metric_type is 'What value holds: ''hours'', or ''sales'' in dollars.';
comment on column public.daily_inputs.value is 'The day''s hours or sales of the labour category, as metric_type says.';
comment on column public.daily_inputs.week_of_month_display is 'The row of the month''s grid the day is shown in, 1 to 6 (weeks start on Sunday).';
comment on column public.daily_inputs.year_week_actual is 'entry_date''s ISO week, ''YYYY-WW''.';
comment on column public.daily_inputs.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index daily_inputs_sync on public.daily_inputs (sync_xid, id);
create index daily_inputs_store_year_month on public.daily_inputs (store_id, year, month);

alter table public.daily_inputs enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.daily_inputs
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.daily_inputs
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.daily_inputs
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.daily_inputs from anon;
revoke delete, truncate, references, trigger on public.daily_inputs from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.daily_inputs
  for each row
  execute function private.stamp_sync_columns();
-- A closed month's figures refuse every change (23M01, "month closed by NAME on DATE").
create trigger refuse_closed_month before insert or delete or update on public.daily_inputs
  for each row
  execute function private.refuse_closed_month();
-- Every change made through the API goes into the change history, once per statement.
create trigger record_change_insert after insert on public.daily_inputs
  referencing new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_update after update on public.daily_inputs
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_delete after delete on public.daily_inputs
  referencing old table as old_rows
  for each statement
  execute function private.record_changes();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.daily_inputs
  for each row
  when (old.metric_type is distinct from new.metric_type
        or old.entry_date is distinct from new.entry_date
        or old.id is distinct from new.id
        or old.store_id is distinct from new.store_id
        or old.row_identifier is distinct from new.row_identifier)
  execute function private.refuse_identity_change();
-- created_at is when the row reached the server, whatever a request sends.
create trigger stamp_created_at_insert before insert on public.daily_inputs
  for each row when (new.created_at is distinct from now())
  execute function private.stamp_created_at();
create trigger stamp_created_at_update before update on public.daily_inputs
  for each row when (new.created_at is distinct from old.created_at)
  execute function private.stamp_created_at();

alter publication supabase_realtime add table public.daily_inputs;

insert into private.synced_tables (name, key_columns) values ('daily_inputs', array['store_id', 'entry_date', 'row_identifier', 'metric_type']);
