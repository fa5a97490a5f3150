-- Closing a month. After review, a store's manager closes a month; from then on the
-- database refuses every insert, update and delete of that month's figures, whatever
-- the path (a device's push, plain REST, SQL as a signed-in user), with SQLSTATE 23M01
-- and the message "month closed by NAME on DATE" (the database owner's own SQL, such as
-- a restore, is not refused). A device that typed an edit offline
-- for a month closed meanwhile gets that refusal on its push and keeps the edit in its
-- refused list, with the reason, for export. Only an admin reopens a month.
--
-- A closure is one row per store and month, synced to devices like the figures (so an
-- offline device shows the month as closed). Who closed or reopened it and when are
-- stamped here from the session, never taken from the client.

create table public.month_closures (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  month_start date not null,
  year integer not null,
  closed boolean not null default true,
  closed_by uuid,
  closed_by_name text,
  closed_at timestamptz,
  reopened_by uuid,
  reopened_by_name text,
  reopened_at timestamptz,
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  work_week text,
  mix_target_cp numeric(5, 2),
  mix_target_w numeric(5, 2),
  mix_target_i numeric(5, 2),
  constraint month_closures_natural_key unique (store_id, month_start),
  constraint month_closures_first_of_month check (extract(day from month_start) = 1),
  constraint month_closures_year_matches_month check (year = extract(year from month_start)::integer),
  constraint month_closures_year_in_range check (year between 2000 and 2100),
  constraint month_closures_closed_by_name_length check (closed_by_name is null or char_length(closed_by_name) <= 200),
  constraint month_closures_reopened_by_name_length check (reopened_by_name is null or char_length(reopened_by_name) <= 200),
  constraint month_closures_work_week_check check (work_week is null or work_week ~ '^[01]{7}$'),
  constraint month_closures_mix_target_cp_in_range check (mix_target_cp is null or (mix_target_cp <> 'NaN' and mix_target_cp between 0 and 100)),
  constraint month_closures_mix_target_w_in_range check (mix_target_w is null or (mix_target_w <> 'NaN' and mix_target_w between 0 and 100)),
  constraint month_closures_mix_target_i_in_range check (mix_target_i is null or (mix_target_i <> 'NaN' and mix_target_i between 0 and 100))
);

comment on column public.month_closures.month_start is 'The month, as its first day.';
comment on column public.month_closures.year is 'month_start''s year, kept so a device''s first sync can fetch recent years only.';
comment on column public.month_closures.closed is 'true while the month is closed; only an admin reopens it (false, or retiring the row).';
comment on column public.month_closures.closed_by is 'The user who last closed the month, stamped by the server.';
comment on column public.month_closures.reopened_by is 'The user who last reopened the month, stamped by the server.';
comment on column public.month_closures.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';
comment on column public.month_closures.work_week is 'The store''s work week when the month was first closed, kept for the month (null while never closed).';
comment on column public.month_closures.mix_target_cp is 'The store''s Work Mix target (customer-pay share) when the month was first closed, kept for the month.';
comment on column public.month_closures.mix_target_w is 'The store''s Work Mix target (warranty share) when the month was first closed, kept for the month.';
comment on column public.month_closures.mix_target_i is 'The store''s Work Mix target (internal share) when the month was first closed, kept for the month.';

create index month_closures_sync on public.month_closures (sync_xid, id);

alter table public.month_closures enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.month_closures
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.month_closures
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.month_closures
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.month_closures from anon;
revoke delete, truncate, references, trigger on public.month_closures from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.month_closures
  for each row
  execute function private.stamp_sync_columns();
create trigger stamp_month_closure before insert or update on public.month_closures
  for each row
  execute function private.stamp_month_closure();
create trigger refuse_closed_closure_delete before delete on public.month_closures
  for each row
  execute function private.refuse_closed_closure_delete();
create trigger lock_month_for_closing before insert or update on public.month_closures
  for each row
  execute function private.lock_month_for_closing();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.month_closures
  for each row
  when (old.id is distinct from new.id
        or old.month_start is distinct from new.month_start
        or old.store_id is distinct from new.store_id)
  execute function private.refuse_identity_change();

alter publication supabase_realtime add table public.month_closures;

insert into private.synced_tables (name, key_columns) values ('month_closures', array['store_id', 'month_start']);

-- Reopening a closed month needs the second factor (fires before the closure's stamps).
create trigger reopening_needs_second_factor before update on public.month_closures
  for each row execute function private.reopening_needs_second_factor();
