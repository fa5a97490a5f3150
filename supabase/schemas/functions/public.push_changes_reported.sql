-- push_changes that also says what each row held before the push.
--
-- Two tablets that come back online together both pull before either pushes, so
-- neither sees the other's value of a cell both edited offline; the second push
-- overwrites the first, and without this no device would know a value was lost. With the
-- stored row as it was just before this push, the device compares it with the value its
-- edit replaced: a different value there is another device's edit, overwritten now, and
-- goes into the conflict log (src/data/sync-store.ts).
--
-- The answer is {"rows": <push_changes' answer>, "before": [<row or null>, ...]}, one
-- "before" per row sent, in the order sent; null for a row that did not exist (or that
-- this person may not see, which push_changes then refuses). The rows are read FOR
-- UPDATE, so nobody changes them between the read and the write. Everything push_changes
-- promises (validation, row-level security, limits, errors) is push_changes' own: this
-- function calls it with the same arguments, and malformed rows are left to it to name.
--
-- p_typed_at (optional): when each row's edit was typed on the device, ISO times in the
-- order sent; p_device (optional): the device's id; p_sources (optional): where each row's
-- edit came from when it was not typed ("imported from FILE"), text or null per row, in the
-- order sent. They are kept for the length of the call (transaction settings
-- app.push_typed_at, app.push_device and app.push_source) for the change history.
create or replace function public.push_changes_reported(p_table text, p_rows jsonb, p_typed_at jsonb default null, p_device text default null, p_sources jsonb default null)
returns jsonb
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_key text[];
  v_match text;
  v_before jsonb;
begin
  v_key := private.synced_table_key(p_table);
  perform set_config('app.push_device', left(coalesce(p_device, ''), 100), true);
  perform set_config('app.push_typed_at', '', true);
  perform set_config('app.push_source', '', true);
  if v_key is not null and jsonb_typeof(p_rows) = 'array' and jsonb_typeof(p_typed_at) = 'array'
     and jsonb_array_length(p_typed_at) = jsonb_array_length(p_rows) and jsonb_array_length(p_rows) <= 400 then
    -- Each row's key with its typed time, for the history trigger to find its row by key.
    perform set_config('app.push_typed_at', coalesce((
      select jsonb_agg(jsonb_build_object('k', (select jsonb_object_agg(k, r.value -> k) from unnest(v_key) k), 'at', t.value))
      from jsonb_array_elements(p_rows) with ordinality r(value, ord)
      join jsonb_array_elements(p_typed_at) with ordinality t(value, ord) on t.ord = r.ord
      where jsonb_typeof(r.value) = 'object')::text, ''), true);
  end if;
  if v_key is not null and jsonb_typeof(p_rows) = 'array' and jsonb_typeof(p_sources) = 'array'
     and jsonb_array_length(p_sources) = jsonb_array_length(p_rows) and jsonb_array_length(p_rows) <= 400 then
    -- Each row's key with its source, only for the rows that name one (text; anything else names none).
    perform set_config('app.push_source', coalesce((
      select jsonb_agg(jsonb_build_object('k', (select jsonb_object_agg(k, r.value -> k) from unnest(v_key) k), 's', left(s.value #>> '{}', 200)))
      from jsonb_array_elements(p_rows) with ordinality r(value, ord)
      join jsonb_array_elements(p_sources) with ordinality s(value, ord) on s.ord = r.ord
      where jsonb_typeof(r.value) = 'object' and jsonb_typeof(s.value) = 'string' and btrim(s.value #>> '{}') <> '')::text, ''), true);
  end if;
  if v_key is not null and jsonb_typeof(p_rows) = 'array' and jsonb_array_length(p_rows) between 1 and 400 then
    select string_agg(format('t.%1$I = s.%1$I', k), ' and ') into v_match from unnest(v_key) k;
    begin
      execute format('select coalesce(jsonb_agg(b.before order by s.ordinality), ''[]'')
                      from jsonb_populate_recordset(null::public.%1$I, $1) with ordinality s
                      left join lateral (select to_jsonb(t) - ''sync_xid'' as before
                                         from public.%1$I t where %2$s for update) b on true',
                     p_table, v_match)
        into v_before using p_rows;
    exception
      when transaction_rollback then
        raise;
      when others then
        v_before := null; -- a malformed batch: push_changes below raises that row's own error
    end;
  end if;
  return jsonb_build_object('rows', public.push_changes(p_table, p_rows), 'before', coalesce(v_before, '[]'::jsonb));
end
$$;

revoke execute on function public.push_changes_reported(text, jsonb, jsonb, text, jsonb) from public, anon;
grant execute on function public.push_changes_reported(text, jsonb, jsonb, text, jsonb) to authenticated, service_role;
