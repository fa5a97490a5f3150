/**
 * The parsed shape of a PostgREST request's query string: select trees, filters, logic
 * trees and order terms. Names here are as the client wrote them; they are checked
 * against the schema cache only when SQL is built, and values never become SQL text.
 */

/** One step of a JSON path: `->key`, `->>key`, `->0`, `->>-1`. */
export type JsonStep = { arrow: '->' | '->>'; key: string; index: boolean };

/** A column, optionally followed by a JSON path (`data->phones->0->>number`). */
export type Field = { name: string; path: JsonStep[] };

export type AggregateName = 'count' | 'sum' | 'avg' | 'min' | 'max';

export type JoinType = 'inner' | 'left';

export type SelectItem =
  | {
      kind: 'field';
      /** `*` for every column; `count()` is the field `*` with the aggregate `count`. */
      field: Field;
      alias?: string;
      cast?: string;
      aggregate?: AggregateName;
      aggregateCast?: string;
    }
  | {
      kind: 'embed';
      relation: string;
      alias?: string;
      hint?: string;
      join?: JoinType;
      /** `...relation(cols)`: the embedded columns join the parent's object. */
      spread: boolean;
      select: SelectItem[];
    };

export type SimpleOperator = 'neq' | 'cs' | 'cd' | 'ov' | 'sl' | 'sr' | 'nxr' | 'nxl' | 'adj';
export type QuantOperator = 'eq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'ilike' | 'match' | 'imatch';
export type FtsOperator = 'fts' | 'plfts' | 'phfts' | 'wfts';

export type Operation =
  | { op: SimpleOperator; value: string }
  | { op: QuantOperator; quantifier?: 'any' | 'all'; value: string }
  | { op: 'in'; values: string[] }
  | { op: 'is'; value: 'null' | 'not_null' | 'true' | 'false' | 'unknown' }
  | { op: 'isdistinct'; value: string }
  | { op: FtsOperator; language?: string; value: string };

export type Condition =
  | { kind: 'filter'; field: Field; negate: boolean; operation: Operation }
  | { kind: 'logic'; op: 'and' | 'or'; negate: boolean; conditions: Condition[] };

export type OrderTerm = {
  field: Field;
  /** `relation(column)`: a column of an embedded to-one resource. */
  relation?: string;
  descending?: boolean;
  nulls?: 'first' | 'last';
};
