/**
 * The file `npm run export -- --for-supabase FILE` writes: one psql script that loads the
 * product's rows and the accounts into a hosted Supabase project after `supabase db push`,
 * in one transaction. Why it is built this way (triggers paused on our own tables rather
 * than session_replication_role, transaction ids moved on, what it refuses) is in
 * docs/moving-to-hosted.md.
 *
 * Its steps, in order: stage the accounts in temporary tables; refuse, changing nothing,
 * unless the database is a project fresh from `supabase db push` of the same migrations
 * (a second run is refused here too); pause the product tables' own triggers (they would
 * stamp new times and transaction ids, record the load as edits in the change history, or
 * refuse a closed month's figures); insert the accounts, then every table's rows in
 * foreign-key order; let sequences go on after the loaded values; turn the triggers back
 * on; check that every table holds exactly the file's rows; move the transaction counter
 * beyond the source's (devices keep the source's transaction ids as their sync position).
 */
import type { ColumnMapping } from './hosted-auth.ts';
import { hostedFactorColumns, hostedIdentityColumns, hostedUserColumns, missingEmailIdentityColumns } from './hosted-auth.ts';
import type { ExportedTable, ExportSource, StagedRows } from './read-source.ts';
import { quoteIdent } from './read-source.ts';

export const exportFormat = 1;
export const exportMarker = '-- Service Department Dashboard: export for a hosted Supabase project';

/** Rows per INSERT statement: small enough for any server's limits, few enough statements. */
const rowsPerStatement = 500;

const qualified = (table: { schema: string; table: string }) => `${quoteIdent(table.schema)}.${quoteIdent(table.table)}`;

/** A SQL string literal (standard_conforming_strings is on in every supported server). */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A dollar-quoted literal whose tag does not occur in the text. */
export function dollarQuoted(text: string, base = 'rows'): string {
  for (let n = 0; ; n += 1) {
    const tag = `$${base}${n === 0 ? '' : `_${n}`}$`;
    if (!text.includes(tag)) return `${tag}${text}${tag}`;
  }
}

const jsonArray = (rows: string[]) => dollarQuoted(`[\n${rows.join(',\n')}\n]`);

const sqlArray = (items: string[], type: string) => (items.length ? `array[${items.map(sqlString).join(', ')}]::${type}[]` : `'{}'::${type}[]`);

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A temporary table of the source's rows under the source's own columns. */
function stagingTable(name: string, staged: StagedRows): string {
  const definition = staged.columns.map((column) => `${quoteIdent(column.name)} ${column.type}`).join(', ');
  const statements = [`create temporary table ${name} (${definition}) on commit drop;`];
  for (const part of chunks(staged.rows, rowsPerStatement)) {
    statements.push(`insert into pg_temp.${name} select * from pg_catalog.jsonb_to_recordset(${jsonArray(part)}::jsonb) as s(${definition});`);
  }
  return statements.join('\n');
}

function mappedInsert(target: string, mapping: readonly ColumnMapping[], from: string): string {
  const columns = mapping.map((m) => quoteIdent(m.column)).join(', ');
  const values = mapping.map((m) => `${m.from}`).join(',\n    ');
  return `insert into ${target} (${columns})\n  select\n    ${values}\n  ${from};`;
}

const guardTemplate = (expected: {
  migrations: string[];
  emptyTables: string[];
  allTables: string[];
  userColumns: string[];
  identityColumns: string[];
  factorColumns: string[] | null;
}) => `do $guard$
declare
  v_expected text[] := ${sqlArray(expected.migrations, 'text')};
  v_applied text[];
  v_missing text;
  v_extra text;
  v_count bigint;
  v_list text;
  v_table text;
  v_found boolean;
begin
  -- Nothing below changes anything: every refusal leaves the database as it was.
  if pg_catalog.to_regclass('supabase_migrations.schema_migrations') is null or pg_catalog.to_regclass('public.stores') is null then
    raise exception 'This database has not been set up with \`supabase db push\`: the product''s tables are missing. Nothing was changed.'
      using hint = 'Run \`supabase link --project-ref <ref>\` and \`supabase db push\` from the same version of the product, then load this file again.';
  end if;
  select coalesce(array_agg(version::text order by version), '{}') into v_applied from supabase_migrations.schema_migrations;
  select string_agg(m, ', ' order by m) into v_missing from unnest(v_expected) m where not (m = any (v_applied));
  select string_agg(m, ', ' order by m) into v_extra from unnest(v_applied) m where not (m = any (v_expected));
  if v_missing is not null then
    raise exception 'The project lacks migrations this data was written under (%). Nothing was changed.', v_missing
      using hint = 'Run \`supabase db push\` from the same version of the product that wrote this file, then load it again.';
  end if;
  if v_extra is not null then
    raise exception 'The project has migrations this data was not written under (%). Nothing was changed.', v_extra
      using hint = 'Start the embedded backend once with this version of the product (it applies them), stop it, export again and load the new file.';
  end if;

  select count(*) into v_count from auth.users u join pg_temp.export_users e on e.id = u.id;
  if v_count > 0 then
    raise exception 'This file has been loaded into this database already (% of its % accounts are there). Nothing was changed.',
      v_count, (select count(*) from pg_temp.export_users);
  end if;
  select string_agg(u.email, ', ' order by u.email) into v_list
    from auth.users u join pg_temp.export_users e on lower(u.email) = lower(e.email);
  if v_list is not null then
    raise exception 'The project already has accounts with e-mail addresses of this file (%). Nothing was changed.', v_list
      using hint = 'Delete those accounts (Dashboard, Authentication, Users) so the file can bring them with their passwords and ids, then load it again.';
  end if;

  foreach v_table in array ${sqlArray(expected.allTables, 'text')} loop
    if pg_catalog.to_regclass(v_table) is null then
      raise exception 'The project has no table % (this file was written under another schema). Nothing was changed.', v_table;
    end if;
    if not pg_catalog.pg_has_role(current_user, (select c.relowner from pg_catalog.pg_class c where c.oid = pg_catalog.to_regclass(v_table)), 'USAGE') then
      raise exception 'The role % does not own %, so it cannot pause its triggers for the load. Nothing was changed.', current_user, v_table
        using hint = 'Connect as the role that ran \`supabase db push\` (postgres).';
    end if;
  end loop;
  foreach v_table in array ${sqlArray(expected.emptyTables, 'text')} loop
    execute format('select exists (select 1 from %s)', v_table) into v_found;
    if v_found then
      raise exception '% already holds rows: this file loads only into a project fresh from \`supabase db push\`. Nothing was changed.', v_table
        using hint = 'Load it into a new project, or empty the product''s tables first.';
    end if;
  end loop;

  select string_agg(c, ', ') into v_list from (
    select 'auth.users.' || c as c from unnest(${sqlArray(expected.userColumns, 'text')}) c
      where not exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = 'auth.users'::regclass and a.attname = c and not a.attisdropped)
    union all
    select 'auth.identities.' || c from unnest(${sqlArray(expected.identityColumns, 'text')}) c
      where not exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = 'auth.identities'::regclass and a.attname = c and not a.attisdropped)
  ) missing;
  if v_list is not null then
    raise exception 'This project''s Auth tables lack columns the accounts need (%). Nothing was changed.', v_list;
  end if;${
    expected.factorColumns
      ? `
  if pg_catalog.to_regclass('auth.mfa_factors') is null then
    raise exception 'This project has no auth.mfa_factors table for the authenticators in this file. Nothing was changed.';
  end if;`
      : ''
  }
end
$guard$;`;

const pauseTriggers = (tables: string[]) => `create temporary table export_paused_triggers (table_name regclass, trigger_name name, was "char") on commit drop;
do $pause$
declare
  r record;
begin
  for r in
    select t.tgrelid::regclass as table_name, t.tgname, t.tgenabled from pg_catalog.pg_trigger t
    where t.tgrelid = any (${sqlArray(tables, 'regclass')}) and not t.tgisinternal and t.tgenabled <> 'D'
  loop
    insert into pg_temp.export_paused_triggers values (r.table_name, r.tgname, r.tgenabled);
    execute format('alter table %s disable trigger %I', r.table_name, r.tgname);
  end loop;
end
$pause$;`;

const resumeTriggers = `do $resume$
declare
  r record;
begin
  for r in select * from pg_temp.export_paused_triggers loop
    execute format('alter table %s enable %s trigger %I', r.table_name,
      case r.was when 'A' then 'always' when 'R' then 'replica' else '' end, r.trigger_name);
  end loop;
end
$resume$;`;

function tableInserts(table: ExportedTable): string {
  const name = qualified(table);
  const columns = table.columns.map(quoteIdent).join(', ');
  const statements = [`-- ${table.schema}.${table.table}: ${table.rows.length} rows`];
  if (table.replaceTargetRows) statements.push(`delete from ${name} where true;`);
  for (const part of chunks(table.rows, rowsPerStatement)) {
    statements.push(
      `insert into ${name} (${columns})${table.hasIdentityColumn ? ' overriding system value' : ''}\n` +
        `  select ${columns} from pg_catalog.jsonb_populate_recordset(null::${name}, ${jsonArray(part)}::jsonb);`,
    );
  }
  return statements.join('\n');
}

function sequencesContinue(tables: ExportedTable[]): string {
  const lines = tables.flatMap((table) =>
    table.sequenceColumns.map(
      (column) =>
        `  perform pg_catalog.setval(pg_catalog.pg_get_serial_sequence(${sqlString(qualified(table))}, ${sqlString(column)}), m)\n` +
        `    from (select max(${quoteIdent(column)}) as m from ${qualified(table)}) s where m is not null;`,
    ),
  );
  return lines.length ? `do $sequences$\nbegin\n${lines.join('\n')}\nend\n$sequences$;` : '';
}

function countsCheck(source: ExportSource): string {
  const check = (name: string, count: string, rows: number) =>
    `  select count(*) into v_count from ${count};\n` +
    `  if v_count <> ${rows} then raise exception '% holds % rows after the load where the file has %. Nothing was changed.', ${sqlString(name)}, v_count, ${rows}; end if;`;
  const checks = [
    check('auth.users', 'auth.users u where u.id in (select e.id from pg_temp.export_users e)', source.users.rows.length),
    ...(source.factors
      ? [check('auth.mfa_factors', 'auth.mfa_factors f where f.id in (select e.id from pg_temp.export_factors e)', source.factors.rows.length)]
      : []),
    ...source.tables.map((table) => check(`${table.schema}.${table.table}`, qualified(table), table.rows.length)),
  ];
  return `do $check$\ndeclare\n  v_count bigint;\nbegin\n${checks.join('\n')}\nend\n$check$;`;
}

/**
 * Moves the transaction counter beyond the source's, one rolled-back subtransaction per id:
 * the load is one transaction, and rolled-back children leave it no list of ids to carry
 * to its commit (a restore commits its own batches, so it lets them end normally).
 */
const transactionIdsBeyond = (next: string) => `create temporary table export_transaction_ids (step integer) on commit drop;
do $xids$
declare
  v_missing bigint := ${next}::bigint - pg_catalog.pg_snapshot_xmax(pg_catalog.pg_current_snapshot())::text::bigint;
begin
  for step in 1 .. greatest(v_missing, 0) loop
    begin
      insert into pg_temp.export_transaction_ids values (step);
      raise exception using errcode = 'P0001';
    exception when sqlstate 'P0001' then null;
    end;
  end loop;
end
$xids$;`;

export type ExportHeader = { takenAt: string };

export function writeLoadScript(source: ExportSource, header: ExportHeader): string {
  const productTables = source.tables.map(qualified);
  const emptyTables = source.tables.filter((table) => !table.replaceTargetRows).map(qualified);
  const rowCount = source.tables.reduce((sum, table) => sum + table.rows.length, 0);
  const from = (staging: string) => `from pg_temp.${staging} s`;
  const parts = [
    `${exportMarker} (format ${exportFormat})`,
    `-- taken-at: ${header.takenAt}`,
    `-- source: ${source.engine}`,
    `-- migrations: ${source.migrations.join(' ')}`,
    `-- next-transaction-id: ${source.nextTransactionId}`,
    `-- holds: ${source.users.rows.length} accounts, ${source.factors?.rows.length ?? 0} authenticators, ${rowCount} rows in ${source.tables.length} tables`,
    '--',
    '-- Load it into the project after `supabase db push`, with psql:',
    '--   psql "$SUPABASE_DB_URL" -f <this file>',
    '-- It runs in one transaction and refuses (changing nothing) a project that is not fresh',
    '-- from `supabase db push` of the same migrations, including one it was loaded into already.',
    '-- It holds password hashes and authenticator secrets: keep it as private as the data folder,',
    '-- and delete it after the move.',
    '',
    '\\set ON_ERROR_STOP on',
    "set client_encoding = 'UTF8';",
    'begin;',
    "set local search_path = '';",
    'set local statement_timeout = 0;',
    'set local lock_timeout = 0;',
    '',
    '-- The accounts as the embedded backend stores them.',
    stagingTable('export_users', source.users),
    stagingTable('export_identities', source.identities),
    source.factors ? stagingTable('export_factors', source.factors) : '',
    '',
    guardTemplate({
      migrations: source.migrations,
      emptyTables,
      allTables: productTables,
      userColumns: hostedUserColumns.map((m) => m.column),
      identityColumns: hostedIdentityColumns.map((m) => m.column),
      factorColumns: source.factors ? hostedFactorColumns.map((m) => m.column) : null,
    }),
    '',
    '-- The product\'s own triggers stay off until the rows are in (see the header of the exporter).',
    pauseTriggers(productTables),
    '',
    '-- The accounts in Supabase Auth\'s shape.',
    mappedInsert('auth.users', hostedUserColumns, from('export_users')),
    mappedInsert('auth.identities', hostedIdentityColumns, from('export_identities')),
    mappedInsert(
      'auth.identities',
      missingEmailIdentityColumns,
      "from pg_temp.export_users u where u.email is not null\n    and not exists (select 1 from pg_temp.export_identities i where i.user_id = u.id and i.provider = 'email')",
    ),
    source.factors ? mappedInsert('auth.mfa_factors', hostedFactorColumns, from('export_factors')) : '',
    '',
    '-- The product\'s tables, each after the tables its foreign keys point to.',
    ...source.tables.map(tableInserts),
    '',
    sequencesContinue(source.tables),
    resumeTriggers,
    countsCheck(source),
    transactionIdsBeyond(source.nextTransactionId),
    'commit;',
    `\\echo 'Loaded ${source.users.rows.length} accounts and ${rowCount} rows in ${source.tables.length} tables. People sign in with their own passwords.'`,
    '',
  ];
  return parts.filter((part, i) => part !== '' || parts[i - 1] !== '').join('\n');
}
