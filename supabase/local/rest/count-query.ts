/**
 * The rows a read counts for `Prefer: count=...`: the root level's filtered rows, not its
 * groups or pages. An `!inner` embed, or a null filter on one (`actors=not.is.null`),
 * restricts them as an EXISTS, as PostgREST 12's readPlanToCountQuery does; other embeds
 * do not change the count and are left out.
 */
import { scopeOf } from './embed-source.ts';
import type { SelectItem } from './grammar/types.ts';
import type { NodeInput, ReadContext } from './read-query.ts';
import { embeddedLevel, optionsFor } from './read-query.ts';
import { conditionSql } from './sql-fragments.ts';

type Embed = Extract<SelectItem, { kind: 'embed' }>;

function existsFor(ctx: ReadContext, node: NodeInput, item: Embed): string {
  const { rel, depth, alias, path, source } = embeddedLevel(ctx, node, item);
  const options = optionsFor(ctx, path, item.relation);
  const child: NodeInput = {
    table: rel.target,
    from: source.from,
    alias,
    select: item.select,
    conditions: options?.conditions ?? [],
    order: [],
    path,
    where: source.where,
    spread: item.spread,
    depth,
  };
  return `EXISTS (${countSelect(ctx, child)})`;
}

/** `SELECT 1 FROM ... WHERE ...` for the rows of `node` that count. */
export function countSelect(ctx: ReadContext, node: NodeInput): string {
  const embeds = node.select.filter((item): item is Embed => item.kind === 'embed');
  const exists = new Map<string, string>();
  const existsOf = (item: Embed) => {
    const label = item.alias ?? item.relation;
    let sql = exists.get(label);
    if (!sql) {
      sql = existsFor(ctx, node, item);
      exists.set(label, sql);
    }
    return sql;
  };
  const where = [...node.where];
  for (const item of embeds) if (item.join === 'inner') where.push(existsOf(item));
  const embedded = (name: string) => {
    const item = embeds.find((e) => (e.alias ?? e.relation) === name);
    return item ? existsOf(item) : null;
  };
  const scope = scopeOf(ctx, node.table, node.alias);
  where.push(...node.conditions.map((c) => conditionSql(c, scope, ctx.params, embedded)));
  return `SELECT 1 FROM ${node.from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
}
