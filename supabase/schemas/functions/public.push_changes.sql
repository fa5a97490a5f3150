-- Field-level writes for the offline clients. What it promises:
--  * each row is its natural key plus only the fields the device changed; an existing row
--    (found by its key) gets exactly those fields, a missing one is inserted with them; an
--    update never sets the id: the id a device sends only names a row the push creates;
--  * repeating a batch changes nothing more (idempotent);
--  * row-level security decides (security invoker): a row of another store is refused 42501;
--  * the answer is the rows as stored, in the order sent, without sync_xid;
--  * any refused row fails the whole call with that row's own error, and nothing of the
--    call is written; the device splits a refused batch until the refused row is alone,
--    dead-letters it and gets the rest in (src/sync/push.ts);
--  * at most 400 rows a call (serviceLimits.pushBatchRows), else 22023 before any write.
--
-- How a batch is applied:
--  1. The envelope (known table, an array, at most 400 rows) is checked.
--  2. One set-based pass groups the rows by field set (the columns a row sends) and
--     checks each field set against the table's writable columns, read from pg_catalog
--     once per call. A row that is not an object, names a column that cannot be written or
--     lacks a key column sends the batch down the row-by-row path (4), which raises that
--     row's exact error.
--  3. The set-based apply, in one subtransaction, per field set: one UPDATE ... FROM the
--     batch for the rows that exist, then one INSERT for the others; the answers are
--     gathered per statement and ordered once. Not an upsert (INSERT ... ON CONFLICT DO
--     UPDATE): Postgres checks NOT NULL columns of the proposed insert before it resolves
--     the conflict, so a row sending some fields of an existing row would be refused, and
--     an upsert fires the insert triggers of rows it then updates. A refused row (a check,
--     a field overflow, a row of another store, a trigger's error), a row another
--     transaction created between the two statements (unique violation) or a key sent
--     twice (found in the answers) raises or is caught here; the subtransaction is undone
--     and the batch goes down the row-by-row path.
--  4. Row by row: update the sent fields, else insert, a unique violation on insert
--     (another device created the row meanwhile) retried as an update. Its first failing
--     row raises its own error, so the device reads the code and message of whatever
--     refused it (a check, the history or closed-month triggers); a key sent twice is
--     applied in the order sent. A row that is an empty object lacks its key (22023).
-- Serialization failures and deadlocks (class 40) are raised at once, not retried row by
-- row: the backend answers 503 and the device tries the whole batch again later.
create or replace function public.push_changes(p_table text, p_rows jsonb)
returns jsonb
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_key text[];
  v_relation regclass;
  v_writable text[];
  v_not_key text[];
  v_count integer;
  v_row_by_row boolean := false;
  v_group record;
  v_group_columns text[] := '{}';
  v_group_ords text[] := '{}';
  v_index integer;
  v_ords bigint[];
  v_group_rows jsonb;
  v_match text;
  v_set text;
  v_columns_sql text;
  v_values_sql text;
  v_staged text;
  v_found bigint[];
  v_part jsonb;
  v_parts jsonb[] := '{}';
  v_answered integer;
  v_distinct integer;
  v_result jsonb;
  v_columns text[];
  -- Row by row (4).
  v_row jsonb;
  v_unknown text;
  v_out jsonb;
  v_outs jsonb[] := '{}';
begin
  v_key := private.synced_table_key(p_table);
  if v_key is null then
    raise exception 'push_changes: "%" is not a synced table', p_table using errcode = '22023';
  end if;
  if jsonb_typeof(p_rows) is distinct from 'array' then
    raise exception 'push_changes: rows must be a JSON array' using errcode = '22023';
  end if;
  v_count := jsonb_array_length(p_rows);
  if v_count > 400 then
    raise exception 'push_changes: % rows in one call; at most 400 are allowed', v_count
      using errcode = '22023', hint = 'Send the rows in batches of at most 400.';
  end if;
  if v_count = 0 then
    return '[]'::jsonb;
  end if;

  -- The columns a push may write: the table's columns this role has any right to (what
  -- information_schema.columns shows it), less the ones the server stamps. And the
  -- columns of an answered row that are not its key.
  v_relation := pg_catalog.to_regclass(format('public.%I', p_table));
  select coalesce(array_agg(a.attname::text) filter (
           where a.attname not in ('sync_xid', 'updated_at')
             and pg_catalog.has_column_privilege(v_relation, a.attnum, 'SELECT, INSERT, UPDATE, REFERENCES')), '{}'),
         coalesce(array_agg(a.attname::text) filter (where not (a.attname::text = any (v_key))), '{}')
    into v_writable, v_not_key
  from pg_catalog.pg_attribute a
  where a.attrelid = v_relation and a.attnum > 0 and not a.attisdropped;

  -- (2) One pass over the batch: each row's field set, and the rows of each. jsonb keeps
  -- an object's keys in one canonical order, so rows sending the same fields in any
  -- order list them alike (were it not so, they would only make more groups). A row that
  -- is not an object has no field set.
  for v_group in
    select g.columns, array_agg(g.ord order by g.ord) as ords
    from (select e.ord, case when jsonb_typeof(e.value) = 'object' then array(select jsonb_object_keys(e.value)) end as columns
          from jsonb_array_elements(p_rows) with ordinality e(value, ord)) g
    group by g.columns
  loop
    if v_group.columns is null or not (v_group.columns @> v_key) or not (v_group.columns <@ v_writable) then
      v_row_by_row := true;
      exit;
    end if;
    -- Kept as text: plpgsql has no array of arrays of different lengths.
    v_group_columns := v_group_columns || v_group.columns::text;
    v_group_ords := v_group_ords || v_group.ords::text;
  end loop;

  if not v_row_by_row then
    begin
      -- (3) Per field set: update the rows that exist, then insert the others.
      select string_agg(format('t.%1$I = s.%1$I', k), ' and ') into v_match from unnest(v_key) k;
      for v_index in 1 .. cardinality(v_group_columns) loop
        v_columns := v_group_columns[v_index]::text[];
        v_ords := v_group_ords[v_index]::bigint[];
        -- An existing row keeps its id (and its key, by which it was found).
        select string_agg(format('%1$I = s.%1$I', k), ', ') into v_set
        from unnest(v_columns) k where not (k = any (v_key)) and k <> 'id';
        select string_agg(format('%I', k), ', '), string_agg(format('s.%I', k), ', ')
          into v_columns_sql, v_values_sql from unnest(v_columns) k;
        -- The group's rows typed as the table's rows, each with its place in the batch:
        -- the whole batch when every row sends the same fields ($2 null), else the
        -- group's rows and their places.
        if cardinality(v_ords) = v_count then
          v_group_rows := p_rows;
          v_ords := null;
        else
          select jsonb_agg(e.value order by e.ord) into v_group_rows
          from jsonb_array_elements(p_rows) with ordinality e(value, ord) where e.ord = any (v_ords);
        end if;
        v_staged := format('select coalesce(($2::bigint[])[s.ordinality], s.ordinality) as push_ord, s.*
                            from jsonb_populate_recordset(null::public.%I, $1) with ordinality s', p_table);

        if v_set is not null then
          execute format('with s as (%s), u as (update public.%I t set %s from s where %s
                            returning s.push_ord, to_jsonb(t) - ''sync_xid'' as stored)
                          select coalesce(array_agg(push_ord), ''{}''),
                                 coalesce(jsonb_agg(jsonb_build_object(''ord'', push_ord, ''r'', stored)), ''[]'')
                          from u', v_staged, p_table, v_set, v_match)
            into v_found, v_part using v_group_rows, v_ords;
        else
          -- Only the key was sent: an existing row is answered as it is, unwritten.
          execute format('select coalesce(array_agg(s.push_ord), ''{}''),
                                 coalesce(jsonb_agg(jsonb_build_object(''ord'', s.push_ord, ''r'', to_jsonb(t) - ''sync_xid'')), ''[]'')
                          from (%s) s join public.%I t on %s', v_staged, p_table, v_match)
            into v_found, v_part using v_group_rows, v_ords;
        end if;
        v_parts := v_parts || v_part;

        if cardinality(v_found) < coalesce(cardinality(v_ords), v_count) then
          execute format('with s as (%1$s), i as (insert into public.%2$I as t (%3$s)
                            select %4$s from s where not (s.push_ord = any ($3)) order by s.push_ord
                            returning t.*)
                          select coalesce(jsonb_agg(jsonb_build_object(''ord'', s.push_ord, ''r'', to_jsonb(t) - ''sync_xid'')), ''[]'')
                          from i t join s on %5$s',
                         v_staged, p_table, v_columns_sql, v_values_sql, v_match)
            into v_part using v_group_rows, v_ords, v_found;
          v_parts := v_parts || v_part;
        end if;
      end loop;

      -- One answer per row, each for another stored row. Anything else means a key was
      -- sent twice, spelled two ways ("2031-03-08" and "2031-03-08T00:00:00"), which the
      -- statements above applied in no particular order: undo, and apply in order below.
      select jsonb_agg(x.r order by x.ord), count(*), count(distinct x.r - v_not_key)
        into v_result, v_answered, v_distinct
      from unnest(v_parts) p(part), jsonb_to_recordset(p.part) x(ord bigint, r jsonb);
      if v_answered <> v_count or v_distinct <> v_count then
        raise exception 'push_changes: % answers for % rows', v_answered, v_count using errcode = 'P0001';
      end if;
      return v_result;
    exception
      when transaction_rollback then
        raise;
      when others then
        null; -- undone with the subtransaction; the row-by-row path names the row and its error
    end;
  end if;

  -- (4) Row by row, in the order sent.
  for v_row in select value from jsonb_array_elements(p_rows) loop
    if jsonb_typeof(v_row) <> 'object' then
      raise exception 'push_changes: each row must be a JSON object' using errcode = '22023';
    end if;
    select array_agg(k order by k) into v_columns from jsonb_object_keys(v_row) k;
    select k into v_unknown from unnest(v_columns) k where not (k = any (v_writable)) order by k limit 1;
    if v_unknown is not null then
      raise exception 'push_changes: column "%" of "%" cannot be written', v_unknown, p_table using errcode = '42703';
    end if;
    -- An empty object has no columns at all (v_columns is null); it lacks its key too.
    if v_columns is null or not v_key <@ v_columns then
      raise exception 'push_changes: a "%" row needs its key %', p_table, v_key using errcode = '22023';
    end if;

    select string_agg(format('t.%1$I = r.%1$I', k), ' and ') into v_match from unnest(v_key) k;
    select string_agg(format('%1$I = r.%1$I', k), ', ') into v_set
    from unnest(v_columns) k where not (k = any (v_key)) and k <> 'id';

    v_out := null;
    for attempt in 1..2 loop
      if v_set is not null then
        execute format('update public.%I t set %s from jsonb_populate_record(null::public.%I, $1) r where %s returning to_jsonb(t)',
                       p_table, v_set, p_table, v_match)
          into v_out using v_row;
      else
        execute format('select to_jsonb(t) from public.%I t, jsonb_populate_record(null::public.%I, $1) r where %s',
                       p_table, p_table, v_match)
          into v_out using v_row;
      end if;
      exit when v_out is not null;
      begin
        execute format('insert into public.%I (%s) select %s from jsonb_populate_record(null::public.%I, $1) r returning to_jsonb(%I.*)',
                       p_table,
                       (select string_agg(format('%I', k), ', ') from unnest(v_columns) k),
                       (select string_agg(format('r.%I', k), ', ') from unnest(v_columns) k),
                       p_table, p_table)
          into v_out using v_row;
        exit;
      exception when unique_violation then
        -- Another device created the row between our update and insert: update it instead.
        if attempt = 2 then
          raise;
        end if;
      end;
    end loop;
    v_outs := v_outs || (v_out - 'sync_xid');
  end loop;
  return to_jsonb(v_outs);
end
$$;

revoke execute on function public.push_changes(text, jsonb) from public, anon;
grant execute on function public.push_changes(text, jsonb) to authenticated, service_role;
