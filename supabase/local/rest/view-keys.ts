/**
 * Which primary and foreign keys of tables a view passes through, as PostgREST 12 finds
 * them (allViewsKeyDependencies): each column of a view's top-level query is traced to the
 * table column it comes from (through views of views), and a key counts for the view when
 * every one of its columns is among the view's. Relationships (view-relationships.ts)
 * and a view's primary key follow from these.
 */
import type { NodeValue, TreeNode } from './node-tree.ts';
import { isNode, parseNodeTree } from './node-tree.ts';

/** Oids come from JSON as strings or numbers. */
export type RawView = { oid: number | string; schema: string; name: string; tree: string; columns: Record<string, string> };
export type RawKey = { name: string; type: 'p' | 'f' | 'f_ref'; table: number | string; columns: number[] };
export type RawTable = { schema: string; name: string; columns: Record<string, string> };
export type RawViews = { views: RawView[] | null; keys: RawKey[] | null; tables: Record<string, RawTable> | null };

export type ViewKey = {
  table: { schema: string; name: string };
  view: { schema: string; name: string };
  constraint: string;
  type: 'p' | 'f' | 'f_ref';
  /** Each key column of the table, with the view's columns showing it (one or more). */
  columns: Array<[string, string[]]>;
};

type Origin = { table: number; column: number };

/** resno -> origin of each entry of the top-level query's target list. */
function targetOrigins(tree: string): Map<number, Origin> {
  const origins = new Map<number, Origin>();
  let parsed: NodeValue;
  try {
    parsed = parseNodeTree(tree);
  } catch {
    return origins;
  }
  const query = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!isNode(query, 'QUERY')) return origins;
  const targets = query.fields.get('targetList');
  for (const entry of Array.isArray(targets) ? targets : []) {
    if (!isNode(entry, 'TARGETENTRY') || entry.fields.get('resjunk') === 'true') continue;
    const number = (field: string) => Number((entry as TreeNode).fields.get(field));
    origins.set(number('resno'), { table: number('resorigtbl'), column: number('resorigcol') });
  }
  return origins;
}

/** Every combination of one view column per key column (a table column shown twice gives two). */
export function expandViewColumns(columns: Array<[string, string[]]>): Array<Array<[string, string]>> {
  return columns.reduce<Array<Array<[string, string]>>>(
    (combinations, [tableColumn, viewColumns]) =>
      combinations.flatMap((prefix) => viewColumns.map((viewColumn) => [...prefix, [tableColumn, viewColumn] as [string, string]])),
    [[]],
  );
}

export function viewKeys(raw: RawViews, exposed: string[]): ViewKey[] {
  const views = new Map((raw.views ?? []).map((v) => [Number(v.oid), { ...v, oid: Number(v.oid), origins: targetOrigins(v.tree) }]));
  const tables = raw.tables ?? {};
  /** The table column a view column shows, following views of views. */
  const origin = (viewOid: number, resno: number): Origin | null => {
    const seen = new Set<number>();
    let at: Origin | undefined = views.get(viewOid)?.origins.get(resno);
    while (at && views.has(at.table)) {
      if (seen.has(at.table)) return null;
      seen.add(at.table);
      at = views.get(at.table)?.origins.get(at.column);
    }
    return at && at.table > 0 && tables[at.table] ? at : null;
  };
  const found: ViewKey[] = [];
  for (const view of views.values()) {
    if (!exposed.includes(view.schema)) continue;
    // table oid -> table attnum -> the view's column names showing it
    const shown = new Map<number, Map<number, string[]>>();
    for (const resno of view.origins.keys()) {
      const from = origin(view.oid, resno);
      const name = view.columns[resno];
      if (!from || name === undefined) continue;
      const byColumn = shown.get(from.table) ?? new Map<number, string[]>();
      byColumn.set(from.column, [...(byColumn.get(from.column) ?? []), name]);
      shown.set(from.table, byColumn);
    }
    for (const key of raw.keys ?? []) {
      const byColumn = shown.get(Number(key.table));
      const table = tables[Number(key.table)];
      if (!byColumn || !table || !key.columns.every((c) => byColumn.has(c))) continue;
      found.push({
        table: { schema: table.schema, name: table.name },
        view: { schema: view.schema, name: view.name },
        constraint: key.name,
        type: key.type,
        columns: key.columns.map((c) => [table.columns[c] as string, byColumn.get(c) as string[]]),
      });
    }
  }
  return found;
}
