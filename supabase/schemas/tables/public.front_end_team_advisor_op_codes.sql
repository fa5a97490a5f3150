-- Op codes an advisor sold (alignments, tires, batteries, services, brakes), kept per
-- advisor and day: a month's figure is the sum of its days, and the tracker enters it on
-- the month's first day.
-- Every table of the front-end team is store-scoped like the rest of the store's data;
-- an advisor's rows name the advisor with the store (store_id, advisor_id), so a row can
-- only belong to an advisor of its own store.

create table public.front_end_team_advisor_op_codes (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  advisor_id uuid not null,
  entry_date date not null,
  year integer not null,
  month integer not null,
  alignments numeric(10, 2),
  tire_sales numeric(10, 2),
  batteries numeric(10, 2),
  auto_trans_service numeric(10, 2),
  coolant_service numeric(10, 2),
  diff_service numeric(10, 2),
  front_brakes numeric(10, 2),
  rear_brakes numeric(10, 2),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint front_end_team_advisor_op_codes_natural_key unique (store_id, advisor_id, entry_date),
  constraint front_end_team_advisor_op_codes_advisor foreign key (store_id, advisor_id) references public.front_end_team_advisors (store_id, id) on delete cascade,
  constraint front_end_team_advisor_op_codes_calendar_matches_date check (
    year = extract(year from entry_date)::integer and month = extract(month from entry_date)::integer
  ),
  constraint front_end_team_advisor_op_codes_diff_service_in_range check (diff_service is null or (diff_service <> 'NaN' and (diff_service between 0 and 100000 and diff_service = trunc(diff_service)))),
  constraint front_end_team_advisor_op_codes_alignments_in_range check (alignments is null or (alignments <> 'NaN' and (alignments between 0 and 100000 and alignments = trunc(alignments)))),
  constraint front_end_team_advisor_op_codes_auto_trans_service_in_range check (auto_trans_service is null or (auto_trans_service <> 'NaN' and (auto_trans_service between 0 and 100000 and auto_trans_service = trunc(auto_trans_service)))),
  constraint front_end_team_advisor_op_codes_batteries_in_range check (batteries is null or (batteries <> 'NaN' and (batteries between 0 and 100000 and batteries = trunc(batteries)))),
  constraint front_end_team_advisor_op_codes_coolant_service_in_range check (coolant_service is null or (coolant_service <> 'NaN' and (coolant_service between 0 and 100000 and coolant_service = trunc(coolant_service)))),
  constraint front_end_team_advisor_op_codes_front_brakes_in_range check (front_brakes is null or (front_brakes <> 'NaN' and (front_brakes between 0 and 100000 and front_brakes = trunc(front_brakes)))),
  constraint front_end_team_advisor_op_codes_month_in_range check (month between 1 and 12),
  constraint front_end_team_advisor_op_codes_rear_brakes_in_range check (rear_brakes is null or (rear_brakes <> 'NaN' and (rear_brakes between 0 and 100000 and rear_brakes = trunc(rear_brakes)))),
  constraint front_end_team_advisor_op_codes_tire_sales_in_range check (tire_sales is null or (tire_sales <> 'NaN' and (tire_sales between 0 and 100000 and tire_sales = trunc(tire_sales)))),
  constraint front_end_team_advisor_op_codes_year_in_range check (year between 2000 and 2100)
);

comment on column public.front_end_team_advisor_op_codes.alignments is 'Alignments sold: a count.';
comment on column public.front_end_team_advisor_op_codes.tire_sales is 'Tires sold: a count.';
comment on column public.front_end_team_advisor_op_codes.batteries is 'Batteries sold: a count.';
comment on column public.front_end_team_advisor_op_codes.auto_trans_service is 'Automatic transmission services sold: a count.';
comment on column public.front_end_team_advisor_op_codes.coolant_service is 'Coolant services sold: a count.';
comment on column public.front_end_team_advisor_op_codes.diff_service is 'Differential services sold: a count.';
comment on column public.front_end_team_advisor_op_codes.front_brakes is 'Front brake jobs sold: a count.';
comment on column public.front_end_team_advisor_op_codes.rear_brakes is 'Rear brake jobs sold: a count.';
comment on column public.front_end_team_advisor_op_codes.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index front_end_team_advisor_op_codes_sync on public.front_end_team_advisor_op_codes (sync_xid, id);

alter table public.front_end_team_advisor_op_codes enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.front_end_team_advisor_op_codes
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.front_end_team_advisor_op_codes
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.front_end_team_advisor_op_codes
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.front_end_team_advisor_op_codes from anon;
revoke delete, truncate, references, trigger on public.front_end_team_advisor_op_codes from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.front_end_team_advisor_op_codes
  for each row
  execute function private.stamp_sync_columns();
-- A closed month's figures refuse every change (23M01, "month closed by NAME on DATE").
create trigger refuse_closed_month before insert or delete or update on public.front_end_team_advisor_op_codes
  for each row
  execute function private.refuse_closed_month();
-- Every change made through the API goes into the change history, once per statement.
create trigger record_change_insert after insert on public.front_end_team_advisor_op_codes
  referencing new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_update after update on public.front_end_team_advisor_op_codes
  referencing old table as old_rows new table as new_rows
  for each statement
  execute function private.record_changes();
create trigger record_change_delete after delete on public.front_end_team_advisor_op_codes
  referencing old table as old_rows
  for each statement
  execute function private.record_changes();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.front_end_team_advisor_op_codes
  for each row
  when (old.entry_date is distinct from new.entry_date
        or old.id is distinct from new.id
        or old.advisor_id is distinct from new.advisor_id
        or old.store_id is distinct from new.store_id)
  execute function private.refuse_identity_change();

alter publication supabase_realtime add table public.front_end_team_advisor_op_codes;

insert into private.synced_tables (name, key_columns) values ('front_end_team_advisor_op_codes', array['store_id', 'advisor_id', 'entry_date']);
