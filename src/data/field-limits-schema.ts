/**
 * Holds the field limits (src/domain/limits.ts) to the database's generated types, at
 * compile time: every synced table has its entry, every column named exists in its table,
 * a number limit sits on a number column, a text or code limit on a text column and a list
 * limit on an array, and a limit that depends on another column names one that exists.
 * A mistake fails `npm run typecheck` naming the table and column.
 *
 * Why here: the limits belong to the domain (the device's number parsing and the screens
 * read them), and the domain knows nothing of storage, so it may not import the database's
 * types; the data layer knows both, so the check lives here and the domain stays pure.
 * Nothing imports this file; the compiler checks it with the rest.
 */
import type { fieldLimits } from '../domain/limits.ts';
import type { ColumnOf, ServerRow, SyncedTable } from './synced-tables.ts';

type Limits = typeof fieldLimits;
type LimitedTable = keyof Limits & SyncedTable;

/** Compiles only when `T` is never; otherwise the error shows what `T` holds. */
type ExpectNone<T extends never> = T;

/** Tables with limits that are not synced tables, and synced tables without limits. */
type UnknownTables = Exclude<keyof Limits, SyncedTable>;
type TablesWithoutLimits = Exclude<SyncedTable, keyof Limits>;

/** "table.column" for each column named that the table does not have. */
type UnknownColumns = { [T in LimitedTable]: `${T}.${Exclude<keyof Limits[T], ColumnOf<T>> & string}` }[LimitedTable];

/** What a column's value must be for the kind of limit on it. */
type ValueOfKind<K> = K extends 'text' | 'code' ? string : K extends 'list' ? readonly unknown[] : number;

/** "table.column" for each limit whose kind does not fit the column's type. */
type MismatchedKinds = {
  [T in LimitedTable]: {
    [C in keyof Limits[T] & ColumnOf<T>]: Limits[T][C] extends { kind: infer K }
      ? NonNullable<ServerRow<T>[C]> extends ValueOfKind<K> ? never : `${T}.${C & string}`
      : never;
  }[keyof Limits[T] & ColumnOf<T>];
}[LimitedTable];

/** "table.column -> other" for each dependent limit whose deciding column does not exist. */
type UnknownDependencies = {
  [T in LimitedTable]: {
    [C in keyof Limits[T]]: Limits[T][C] extends { kind: 'depends'; on: infer On } ? (On extends ColumnOf<T> ? never : `${T}.${C & string} -> ${On & string}`) : never;
  }[keyof Limits[T]];
}[LimitedTable];

/** An error below names what is wrong, or the check (hover it in an editor to list the columns). */
export type FieldLimitsFollowTheSchema = [
  ExpectNone<UnknownTables>,
  ExpectNone<TablesWithoutLimits>,
  ExpectNone<UnknownColumns>,
  ExpectNone<MismatchedKinds>,
  ExpectNone<UnknownDependencies>,
];
