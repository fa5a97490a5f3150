/**
 * Reads a REST request's query string into what the SQL builders take: the select tree,
 * top-level conditions, order and paging, and per-embed options (`owner.order=...`).
 * A request past the cost limits (parameters, filters, embed depth) is refused here,
 * before any SQL is built.
 */
import type { ServiceLimits } from '../../../src/domain/limits.ts';
import { RestError } from './errors.ts';
import type { Condition, SelectItem } from './grammar.ts';
import { parseCount, parseFilter, parseLogic, parseNameList, parseOrder, parseSelect } from './grammar.ts';
import type { EmbedOptions, ReadShape } from './sql-builder.ts';

const reserved = new Set(['select', 'order', 'limit', 'offset', 'columns', 'on_conflict']);

export type ShapeLimits = Pick<ServiceLimits, 'maxQueryParameters' | 'maxFilters' | 'maxEmbedDepth' | 'maxLogicDepth'>;

function embedOptions(map: Map<string, EmbedOptions>, path: string): EmbedOptions {
  let options = map.get(path);
  if (!options) {
    options = { conditions: [], order: [] };
    map.set(path, options);
  }
  return options;
}

function logicKey(key: string): { op: 'and' | 'or'; negate: boolean } | null {
  const match = /^(not\.)?(and|or)$/.exec(key);
  return match ? { op: match[2] as 'and' | 'or', negate: !!match[1] } : null;
}

export type QueryShape = ReadShape & { columns?: string[]; onConflict?: string[] };

export function readQueryShape(params: URLSearchParams, range: string | undefined, limits: ShapeLimits): QueryShape {
  const entries = [...params.entries()];
  if (entries.length > limits.maxQueryParameters) {
    throw new RestError(400, 'PGRST100', 'Too many query parameters', `At most ${limits.maxQueryParameters} are allowed.`);
  }
  const shape: QueryShape = { select: [{ kind: 'star' }], conditions: [], order: [], embeds: new Map() };
  for (const [key, value] of entries) {
    if (key === 'select') shape.select = parseSelect(value);
    else if (key === 'order') shape.order = parseOrder(value);
    else if (key === 'limit') shape.limit = parseCount(value, 'limit');
    else if (key === 'offset') shape.offset = parseCount(value, 'offset');
    else if (key === 'columns') shape.columns = parseNameList(value, 'columns');
    else if (key === 'on_conflict') shape.onConflict = parseNameList(value, 'on_conflict');
    else addCondition(shape, key, value, limits.maxLogicDepth);
  }
  checkEmbedPaths(shape);
  checkCost(shape, limits);
  if (range && shape.limit === undefined && shape.offset === undefined) {
    const match = /^(\d{1,9})-(\d{0,9})$/.exec(range.trim());
    if (match) {
      shape.offset = Number(match[1]);
      if (match[2]) shape.limit = Math.max(0, Number(match[2]) - shape.offset + 1);
    }
  }
  return shape;
}

/** Every `path.field=` option must name a resource embedded by `select`, or it would be silently ignored. */
function checkEmbedPaths(shape: QueryShape): void {
  const paths = new Set<string>();
  const walk = (items: SelectItem[], prefix: string[]) => {
    for (const item of items) {
      if (item.kind !== 'embed') continue;
      for (const name of new Set([item.alias ?? item.relation, item.relation])) {
        paths.add([...prefix, name].join('.'));
      }
      walk(item.select, [...prefix, item.alias ?? item.relation]);
    }
  };
  walk(shape.select, []);
  for (const path of shape.embeds.keys()) {
    if (!paths.has(path)) {
      throw new RestError(400, 'PGRST108', `'${path}' is not an embedded resource in this request`, null,
        `Verify that '${path}' is included in the 'select' query parameter.`);
    }
  }
}

/** Refuses a select nested deeper than maxEmbedDepth, or more filters than maxFilters. */
function checkCost(shape: QueryShape, limits: ShapeLimits): void {
  const depth = (items: SelectItem[]): number =>
    Math.max(0, ...items.map((item) => (item.kind === 'embed' ? 1 + depth(item.select) : 0)));
  const deepest = depth(shape.select);
  if (deepest > limits.maxEmbedDepth) {
    throw new RestError(400, 'PGRST100', `Resources are embedded ${deepest} levels deep; at most ${limits.maxEmbedDepth} are allowed.`,
      null, 'Fetch the deeper resources with a request of their own.');
  }
  const count = (conditions: Condition[]): number =>
    conditions.reduce((sum, c) => sum + (c.kind === 'logic' ? count(c.conditions) : 1), 0);
  const filters = count(shape.conditions) + [...shape.embeds.values()].reduce((sum, e) => sum + count(e.conditions), 0);
  if (filters > limits.maxFilters) {
    throw new RestError(400, 'PGRST100', `The request has ${filters} filters; at most ${limits.maxFilters} are allowed.`);
  }
}

function addCondition(shape: QueryShape, key: string, value: string, maxLogicDepth: number): void {
  const logic = logicKey(key);
  if (logic) {
    shape.conditions.push(parseLogic(logic.op, logic.negate, value, maxLogicDepth));
    return;
  }
  const parts = key.split('.');
  if (parts.length === 1) {
    shape.conditions.push(parseFilter(key, value));
    return;
  }
  // `owner.order=...`, `owner.limit=...`, `owner.name=eq.bob`, `owner.or=(...)`.
  const field = parts[parts.length - 1] as string;
  const options = embedOptions(shape.embeds, parts.slice(0, -1).join('.'));
  const nestedLogic = logicKey(field);
  let condition: Condition | null = null;
  if (field === 'order') options.order = parseOrder(value);
  else if (field === 'limit') options.limit = parseCount(value, key);
  else if (field === 'offset') options.offset = parseCount(value, key);
  else if (nestedLogic) condition = parseLogic(nestedLogic.op, nestedLogic.negate, value, maxLogicDepth);
  else if (reserved.has(field)) throw new RestError(400, 'PGRST100', `"${key}" is not supported`);
  else condition = parseFilter(field, value);
  if (condition) options.conditions.push(condition);
}
