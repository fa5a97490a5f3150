/**
 * Reads what a hosted project needs from the embedded backend's database, in one
 * read-only snapshot: the product's tables (every table of the schemas the migrations
 * create, less the registry the migrations write themselves) with their rows in an order
 * that satisfies their foreign keys, the accounts and their identities (and verified TOTP
 * factors where the backend has them; security keys stay behind) as staging rows for hosted-auth.ts, which
 * migrations the data was written under, and the transaction id the source had reached.
 *
 * Rows travel as the database's own JSON text (to_jsonb), never parsed here, so no number,
 * time or text is rounded or re-encoded on the way.
 */
import type { Queryable } from '../db/database.ts';
import { base32SecretPattern, bcryptHashPattern, exportedFactorFilter } from './hosted-auth.ts';

/** Schemas whose tables the migrations create: the API's, the change history's and the private helpers'. */
export const productSchemas = ['public', 'audit', 'private'] as const;

/** Tables whose rows the migrations write themselves (and so hold already in the target). */
const writtenByMigrations = new Set(['private.synced_tables']);

export type ExportedTable = {
  schema: string;
  table: string;
  /** Columns the rows carry: every column but generated ones, in table order. */
  columns: string[];
  hasIdentityColumn: boolean;
  /** Columns whose values come from a sequence, which must continue after the loaded ones. */
  sequenceColumns: string[];
  /**
   * Private settings tables may hold a row a migration wrote (a default): the loaded
   * rows replace them. The API's tables and the history must be empty in the target.
   */
  replaceTargetRows: boolean;
  /** Each row as to_jsonb text, generated columns removed. */
  rows: string[];
};

/** Rows staged under the source's own columns, mapped to hosted Auth's by hosted-auth.ts. */
export type StagedRows = { columns: Array<{ name: string; type: string }>; rows: string[] };

export type AccountNotes = {
  accounts: number;
  unconfirmed: number;
  invitedWithoutPassword: number;
  pendingEmailChanges: number;
  withoutEmailIdentity: number;
  factorsExported: number;
  /** Authenticators whose setup was never finished. */
  factorsLeft: number;
  /** Registered security keys and passkeys, which do not move (hosted-auth.ts, exportedFactorFilter). */
  securityKeysLeft: number;
};

export type ExportSource = {
  engine: string;
  migrations: string[];
  nextTransactionId: string;
  /** In an order that satisfies every foreign key among them. */
  tables: ExportedTable[];
  users: StagedRows;
  identities: StagedRows;
  factors: StagedRows | null;
  notes: AccountNotes;
};

export class ExportRefusedError extends Error {}

const qualified = (schema: string, table: string) => `${quoteIdent(schema)}.${quoteIdent(table)}`;

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

type TableInfo = { oid: number; schema: string; table: string };
type ColumnInfo = { name: string; generated: boolean; identity: boolean; sequence: boolean; type: string };

async function listTables(tx: Queryable): Promise<TableInfo[]> {
  const { rows } = await tx.query<{ oid: number; schema: string; table: string }>(
    `select c.oid::integer as oid, n.nspname::text as schema, c.relname::text as table
     from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and not c.relispartition and n.nspname = any ($1::text[])
     order by 2, 3`,
    [productSchemas],
  );
  return rows.filter((row) => !writtenByMigrations.has(`${row.schema}.${row.table}`));
}

async function columnsOf(tx: Queryable, oid: number): Promise<ColumnInfo[]> {
  const { rows } = await tx.query<ColumnInfo>(
    `select a.attname::text as name, a.attgenerated <> '' as generated, a.attidentity <> '' as identity,
            pg_catalog.pg_get_serial_sequence(a.attrelid::regclass::text, a.attname) is not null as sequence,
            case when t.typnamespace = 'pg_catalog'::regnamespace
                 then pg_catalog.format_type(a.atttypid, a.atttypmod) else 'text' end as type
     from pg_catalog.pg_attribute a join pg_catalog.pg_type t on t.oid = a.atttypid
     where a.attrelid = $1::oid and a.attnum > 0 and not a.attisdropped
     order by a.attnum`,
    [oid],
  );
  return rows;
}

/** The table's rows as to_jsonb text without its generated columns, by primary key (else by content). */
async function rowsOf(tx: Queryable, table: TableInfo, generated: string[], where = 'true'): Promise<string[]> {
  const { rows: key } = await tx.query<{ name: string }>(
    `select a.attname::text as name
     from pg_catalog.pg_index i
     join lateral unnest(i.indkey) with ordinality k(attnum, ord) on true
     join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
     where i.indrelid = $1::oid and i.indisprimary order by k.ord`,
    [table.oid],
  );
  const orderBy = key.length ? key.map((column) => `s.${quoteIdent(column.name)}`).join(', ') : 'r';
  const { rows } = await tx.query<{ r: string }>(
    `select (to_jsonb(s) - $1::text[])::text as r from ${qualified(table.schema, table.table)} s where ${where} order by ${orderBy}`,
    [generated],
  );
  return rows.map((row) => row.r);
}

/**
 * Tables in an order where every table comes after those its foreign keys point to.
 * Keys to tables outside the export (auth.users) are loaded before all of them.
 */
async function inForeignKeyOrder(tx: Queryable, tables: TableInfo[]): Promise<TableInfo[]> {
  const { rows } = await tx.query<{ child: number; parent: number }>(
    `select conrelid::integer as child, confrelid::integer as parent from pg_catalog.pg_constraint
     where contype = 'f' and conrelid <> confrelid`,
  );
  const byOid = new Map(tables.map((table) => [table.oid, table]));
  const parents = new Map<number, Set<number>>(tables.map((table) => [table.oid, new Set()]));
  for (const { child, parent } of rows) {
    if (byOid.has(child) && byOid.has(parent)) parents.get(child)?.add(parent);
  }
  const ordered: TableInfo[] = [];
  const placed = new Set<number>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((table) => !placed.has(table.oid) && [...(parents.get(table.oid) ?? [])].every((p) => placed.has(p)));
    if (!ready.length) {
      const left = tables.filter((table) => !placed.has(table.oid)).map((table) => `${table.schema}.${table.table}`);
      throw new ExportRefusedError(`The foreign keys of ${left.join(', ')} form a cycle; the export cannot order their rows.`);
    }
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.oid);
    }
  }
  return ordered;
}

async function stage(tx: Queryable, schema: string, table: string, where = 'true'): Promise<StagedRows | null> {
  const { rows } = await tx.query<{ oid: number | null }>('select pg_catalog.to_regclass($1)::oid::integer as oid', [qualified(schema, table)]);
  const oid = rows[0]?.oid;
  if (!oid) return null;
  const columns = await columnsOf(tx, oid);
  const generated = columns.filter((column) => column.generated).map((column) => column.name);
  return {
    columns: columns.filter((column) => !column.generated).map(({ name, type }) => ({ name, type })),
    rows: await rowsOf(tx, { oid, schema, table }, generated, where),
  };
}

/** Refuses accounts hosted Auth could not sign in: a password hash it cannot read, a factor secret it cannot use. */
async function checkCredentials(tx: Queryable, factorsSupported: boolean): Promise<void> {
  const { rows: users } = await tx.query<{ email: string | null; id: string; hash: string }>(
    'select email, id::text as id, encrypted_password as hash from auth.users where encrypted_password is not null',
  );
  const unreadable = users.filter((user) => user.hash !== '' && !bcryptHashPattern.test(user.hash));
  if (unreadable.length) {
    throw new ExportRefusedError(
      `${unreadable.map((user) => user.email ?? user.id).join(', ')}: the stored password is not a bcrypt hash hosted Auth can verify. ` +
        'Set a new password for these accounts (Admin, Users) and export again.',
    );
  }
  if (!factorsSupported) return;
  const { rows: factors } = await tx.query<{ email: string | null; secret: string | null }>(
    `select u.email, s.secret from auth.mfa_factors s join auth.users u on u.id = s.user_id where ${exportedFactorFilter}`,
  );
  const unusable = factors.filter((factor) => !factor.secret || !base32SecretPattern.test(factor.secret));
  if (unusable.length) {
    throw new ExportRefusedError(
      `${unusable.map((factor) => factor.email).join(', ')}: an authenticator's secret is not stored as base32 text, which hosted Auth needs. ` +
        'Remove those authenticators (Admin, Users) and export again; they are set up again after the move.',
    );
  }
}

async function accountNotes(tx: Queryable, factorsSupported: boolean): Promise<AccountNotes> {
  const { rows } = await tx.query<Omit<AccountNotes, 'factorsExported' | 'factorsLeft' | 'securityKeysLeft'>>(
    `select count(*)::integer as accounts,
            count(*) filter (where u.email_confirmed_at is null)::integer as unconfirmed,
            count(*) filter (where u.invited_at is not null and u.encrypted_password is null)::integer as "invitedWithoutPassword",
            count(*) filter (where coalesce(u.email_change, '') <> '')::integer as "pendingEmailChanges",
            count(*) filter (where u.email is not null and not exists (
              select 1 from auth.identities i where i.user_id = u.id and i.provider = 'email'))::integer as "withoutEmailIdentity"
     from auth.users u`,
  );
  let factorsExported = 0;
  let factorsLeft = 0;
  let securityKeysLeft = 0;
  if (factorsSupported) {
    const { rows: factors } = await tx.query<{ exported: number; left: number; keys: number }>(
      `select count(*) filter (where ${exportedFactorFilter})::integer as exported,
              count(*) filter (where not (${exportedFactorFilter}) and s.status::text <> 'verified')::integer as left,
              count(*) filter (where not (${exportedFactorFilter}) and s.status::text = 'verified')::integer as keys
       from auth.mfa_factors s`,
    );
    factorsExported = factors[0]?.exported ?? 0;
    factorsLeft = factors[0]?.left ?? 0;
    securityKeysLeft = factors[0]?.keys ?? 0;
  }
  const counts = rows[0] ?? { accounts: 0, unconfirmed: 0, invitedWithoutPassword: 0, pendingEmailChanges: 0, withoutEmailIdentity: 0 };
  return { ...counts, factorsExported, factorsLeft, securityKeysLeft };
}

/** Everything the export holds, read in the transaction `tx` (which the caller makes read-only and repeatable-read). */
export async function readSource(tx: Queryable, engine: string): Promise<ExportSource> {
  const [about = { version: '', next: '' }] = (
    await tx.query<{ version: string; next: string }>(
      `select current_setting('server_version') as version, pg_catalog.pg_snapshot_xmax(pg_catalog.pg_current_snapshot())::text as next`,
    )
  ).rows;
  const migrations = (await tx.query<{ version: string }>('select version::text as version from supabase_migrations.schema_migrations order by version')).rows.map(
    (row) => row.version,
  );
  const factorsSupported = (await tx.query<{ found: boolean }>("select pg_catalog.to_regclass('auth.mfa_factors') is not null as found")).rows[0]?.found === true;
  await checkCredentials(tx, factorsSupported);

  const tables: ExportedTable[] = [];
  for (const table of await inForeignKeyOrder(tx, await listTables(tx))) {
    const columns = await columnsOf(tx, table.oid);
    const generated = columns.filter((column) => column.generated).map((column) => column.name);
    tables.push({
      schema: table.schema,
      table: table.table,
      columns: columns.filter((column) => !column.generated).map((column) => column.name),
      hasIdentityColumn: columns.some((column) => column.identity),
      sequenceColumns: columns.filter((column) => column.sequence).map((column) => column.name),
      replaceTargetRows: table.schema === 'private',
      rows: await rowsOf(tx, table, generated),
    });
  }
  const users = await stage(tx, 'auth', 'users');
  const identities = await stage(tx, 'auth', 'identities');
  if (!users || !identities) throw new ExportRefusedError('This database has no accounts tables (auth.users, auth.identities): it is not the embedded backend\'s.');
  return {
    engine: `${engine}, PostgreSQL ${about.version}`,
    migrations,
    nextTransactionId: about.next,
    tables,
    users,
    identities,
    factors: factorsSupported ? await stage(tx, 'auth', 'mfa_factors', exportedFactorFilter) : null,
    notes: await accountNotes(tx, factorsSupported),
  };
}
