-- The store's service advisors. An advisor leaves the team with is_active = false (their
-- figures stay); retiring one (deleted_at) who has figures in a closed month is refused.
-- The composite key (store_id, id) lets the advisors' figures prove that the advisor
-- belongs to the same store as the row, and is the index a store's advisors are read by.

create table public.front_end_team_advisors (
  id uuid primary key default gen_random_uuid(),
  store_id uuid not null references public.stores (id) on delete cascade,
  advisor_name text not null,
  employee_id text,
  hire_date date,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  sync_xid xid8 not null default pg_current_xact_id(),
  deleted_at timestamptz,
  constraint front_end_team_advisors_store_id_id unique (store_id, id),
  constraint front_end_team_advisors_advisor_name_length check (btrim(advisor_name) <> '' and char_length(advisor_name) <= 200),
  constraint front_end_team_advisors_employee_id_length check (employee_id is null or char_length(employee_id) <= 64)
);

comment on column public.front_end_team_advisors.employee_id is 'The advisor''s payroll or dealer-system employee number, as typed.';
comment on column public.front_end_team_advisors.is_active is 'false: the advisor has left the team; their figures stay.';
comment on column public.front_end_team_advisors.sync_xid is 'The transaction that last wrote the row, stamped by the server: pulls page by it, so a transaction that commits late is never skipped.';

create index front_end_team_advisors_sync on public.front_end_team_advisors (sync_xid, id);

alter table public.front_end_team_advisors enable row level security;

-- Members of the row's store read, add and change its rows; nobody deletes through the
-- API (rows are retired with deleted_at, so that pulls see the removal).
create policy "Store members can read their store's rows" on public.front_end_team_advisors
  for select to authenticated using (store_id = (select public.get_user_store_id()));
create policy "Store members can add rows to their store" on public.front_end_team_advisors
  for insert to authenticated with check (store_id = (select public.get_user_store_id()));
create policy "Store members can change their store's rows" on public.front_end_team_advisors
  for update to authenticated
  using (store_id = (select public.get_user_store_id()))
  with check (store_id = (select public.get_user_store_id()));

revoke all on public.front_end_team_advisors from anon;
revoke delete, truncate, references, trigger on public.front_end_team_advisors from authenticated;

-- The server's clock and transaction stamp every write; pulls page by sync_xid.
create trigger stamp_sync_columns before insert or update on public.front_end_team_advisors
  for each row
  execute function private.stamp_sync_columns();
-- A row's id and natural key never change in place (23I01); nor does its store (42501).
create trigger refuse_identity_change before update on public.front_end_team_advisors
  for each row when (old.id is distinct from new.id)
  execute function private.refuse_identity_change();
create trigger refuse_retiring_closed_month_advisor before update on public.front_end_team_advisors
  for each row
  execute function private.refuse_retiring_closed_month_advisor();
-- created_at is when the row reached the server, whatever a request sends.
create trigger stamp_created_at_insert before insert on public.front_end_team_advisors
  for each row when (new.created_at is distinct from now())
  execute function private.stamp_created_at();
create trigger stamp_created_at_update before update on public.front_end_team_advisors
  for each row when (new.created_at is distinct from old.created_at)
  execute function private.stamp_created_at();

alter publication supabase_realtime add table public.front_end_team_advisors;

insert into private.synced_tables (name, key_columns) values ('front_end_team_advisors', array['id']);
