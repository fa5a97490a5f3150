/**
 * The shape of a table or view the REST service serves: its columns and keys, as the
 * schema cache reads them from the catalog. Apart from the cache, so the relationship
 * graph that the cache builds can name it without importing the cache back.
 */

/** `type` as format_type prints it; `udt` the type's name (int4, _text), as Realtime reports columns. */
export type Column = {
  name: string;
  type: string;
  udt: string;
  isArray: boolean;
  /** A composite type: JSON paths reach into it through to_jsonb, as into arrays. */
  isComposite: boolean;
  /** The column's default expression, as PostgREST's schema cache keeps it for `Prefer: missing=default`. */
  default?: string;
};

export type Table = {
  schema: string;
  name: string;
  columns: Map<string, Column>;
  columnOrder: string[];
  primaryKey: string[];
  /** Primary key and unique constraints, each a column list: a foreign key over one of them is one-to-one. */
  uniqueKeys: string[][];
  isView: boolean;
};
