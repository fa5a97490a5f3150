-- Each store's service-department configuration: labour rates, head counts, its work
-- pattern (work_week) and its Work Mix target (the three shares add up to 100, or are all
-- empty for the default CP 40, W 30, I 30).

create table public.store_settings (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null unique references public.stores (id) on delete cascade,
  labour_rate numeric(10, 2),
  warranty_rate numeric(10, 2),
  internal_rate numeric(10, 2),
  stalls integer,
  journeyman_technicians integer,
  apprentice_technicians integer,
  lube_techs integer,
  service_advisors integer,
  appt_coordinator integer,
  dispatcher integer,
  service_manager integer,
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  work_week text,
  mix_target_cp numeric(5, 2),
  mix_target_w numeric(5, 2),
  mix_target_i numeric(5, 2),
  import_mapping text,
  constraint store_settings_apprentice_technicians_in_range check (apprentice_technicians is null or apprentice_technicians between 0 and 1000),
  constraint store_settings_appt_coordinator_in_range check (appt_coordinator is null or appt_coordinator between 0 and 1000),
  constraint store_settings_dispatcher_in_range check (dispatcher is null or dispatcher between 0 and 1000),
  constraint store_settings_internal_rate_in_range check (internal_rate is null or (internal_rate <> 'NaN' and internal_rate between 0 and 1000)),
  constraint store_settings_journeyman_technicians_in_range check (journeyman_technicians is null or journeyman_technicians between 0 and 1000),
  constraint store_settings_labour_rate_in_range check (labour_rate is null or (labour_rate <> 'NaN' and labour_rate between 0 and 1000)),
  constraint store_settings_lube_techs_in_range check (lube_techs is null or lube_techs between 0 and 1000),
  constraint store_settings_service_advisors_in_range check (service_advisors is null or service_advisors between 0 and 1000),
  constraint store_settings_service_manager_in_range check (service_manager is null or service_manager between 0 and 1000),
  constraint store_settings_stalls_in_range check (stalls is null or stalls between 0 and 1000),
  constraint store_settings_warranty_rate_in_range check (warranty_rate is null or (warranty_rate <> 'NaN' and warranty_rate between 0 and 1000)),
  constraint store_settings_work_week_check check (work_week is null or work_week ~ '^[01]{7}$'),
  constraint store_settings_mix_target_cp_in_range check (mix_target_cp is null or (mix_target_cp <> 'NaN' and mix_target_cp between 0 and 100)),
  constraint store_settings_mix_target_w_in_range check (mix_target_w is null or (mix_target_w <> 'NaN' and mix_target_w between 0 and 100)),
  constraint store_settings_mix_target_i_in_range check (mix_target_i is null or (mix_target_i <> 'NaN' and mix_target_i between 0 and 100)),
  constraint store_settings_mix_target_adds_up check (
    (mix_target_cp is null and mix_target_w is null and mix_target_i is null)
    or (mix_target_cp + mix_target_w + mix_target_i = 100)),
  constraint store_settings_import_mapping_length check (import_mapping is null or char_length(import_mapping) <= 4000)
);

comment on column public.store_settings.labour_rate is 'Customer-pay labour rate (the door rate), in dollars per hour.';
comment on column public.store_settings.warranty_rate is 'Warranty labour rate, in dollars per hour.';
comment on column public.store_settings.internal_rate is 'Internal labour rate, in dollars per hour.';
comment on column public.store_settings.service_advisors is 'How many service advisors the department has (a head count; the advisors themselves are front_end_team_advisors).';
comment on column public.store_settings.appt_coordinator is 'How many appointment coordinators the department has.';
comment on column public.store_settings.dispatcher is 'How many dispatchers the department has.';
comment on column public.store_settings.service_manager is 'How many service managers the department has.';
comment on column public.store_settings.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';
comment on column public.store_settings.work_week is 'The weekdays the store is open, Monday first: ''1'' open, ''0'' closed (''1111110'' is Monday to Saturday); null means Monday to Saturday.';
comment on column public.store_settings.mix_target_cp is 'Work Mix target: the customer-pay share of hours, in percent. The three shares add up to 100, or all are null for CP 40, W 30, I 30.';
comment on column public.store_settings.mix_target_w is 'Work Mix target: the warranty share of hours, in percent (see mix_target_cp).';
comment on column public.store_settings.mix_target_i is 'Work Mix target: the internal share of hours, in percent (see mix_target_cp).';
comment on column public.store_settings.import_mapping is
  'The dealer-system import''s column mapping, as JSON the app writes (src/domain/import/mapping.ts).';

create index store_settings_sync on public.store_settings (sync_xid, id);

alter table public.store_settings enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.store_settings
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.store_settings
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.store_settings
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.store_settings from anon;
revoke delete, truncate, references, trigger on public.store_settings from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.store_settings
  for each row
  execute function private.stamp_sync_columns();
-- Every change made through the API goes into the change history, once per statement.
create trigger record_change_insert after insert on public.store_settings
  referencing new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_update after update on public.store_settings
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function private.record_changes();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.store_settings
  for each row when (old.id is distinct from new.id or old.store_id is distinct from new.store_id)
  execute function private.refuse_identity_change();
create trigger record_change_delete after delete on public.store_settings
  referencing old table as old_rows
  for each statement
  execute function private.record_changes();

alter publication supabase_realtime add table public.store_settings;

insert into private.synced_tables (name, key_columns) values ('store_settings', array['store_id']);
