-- created_at is the time the row reached the server, whatever a request sends (an insert
-- or update through the API); the database owner's own SQL keeps what it writes. Its
-- triggers run only when a write would store another created_at than the server's.
create or replace function private.stamp_created_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if nullif(current_setting('request.jwt.claims', true), '') is not null then
    new.created_at := case when tg_op = 'INSERT' then now() else old.created_at end;
  end if;
  return new;
end
$$;

revoke all on function private.stamp_created_at() from public;
