-- created_at's stamp (20260701000000_immutable_identity.sql) runs only when a write
-- would store another created_at than the server's: an insert that sends one (the
-- column's default is the server's time already), an update that changes it. The app's
-- edits send none, so a push of daily values no longer calls a function per row for it.
-- What is stored is unchanged.

do $$
declare
  v_table text;
begin
  for v_table in
    select c.relname::text from pg_catalog.pg_trigger t
    join pg_catalog.pg_class c on c.oid = t.tgrelid
    where c.relnamespace = 'public'::regnamespace and t.tgname = 'stamp_created_at'
    order by 1
  loop
    execute format('drop trigger stamp_created_at on public.%I', v_table);
    execute format('create trigger stamp_created_at_insert before insert on public.%I for each row
                      when (new.created_at is distinct from now()) execute function private.stamp_created_at()', v_table);
    execute format('create trigger stamp_created_at_update before update on public.%I for each row
                      when (new.created_at is distinct from old.created_at) execute function private.stamp_created_at()', v_table);
  end loop;
end
$$;
