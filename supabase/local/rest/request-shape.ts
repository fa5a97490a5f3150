/**
 * Reads a REST request's query string into what the SQL builders take: the select tree,
 * root conditions, order and paging, per-embed options (`owner.order=...`), and for
 * GET /rpc the function's arguments. A request past the cost limits (parameters,
 * filters, patterns) is refused here, before any SQL is built; one embedded too deep,
 * once its statement is built (checkEmbedDepth), still before anything runs.
 */
import type { ServiceLimits } from '../../../src/domain/limits.ts';
import type { BackendLimits } from '../service-limits.ts';
import { refuse, RestError } from './errors.ts';
import { isFilterValue, parseFilter, parseLogic, parseLogicKey, parseTreePath } from './grammar/filters.ts';
import { parseCount, parseNameList, parseOrder } from './grammar/order.ts';
import { parseSelect } from './grammar/select.ts';
import type { Condition, OrderTerm, SelectItem } from './grammar/types.ts';
import { checkPatterns } from './pattern-guard.ts';
import type { EmbedOptions } from './embed-source.ts';

export type ShapeLimits = Pick<ServiceLimits, 'maxQueryParameters' | 'maxFilters' | 'maxEmbedDepth' | 'maxLogicDepth'> &
  Pick<BackendLimits, 'maxPatternLength'>;

export type QueryShape = {
  select: SelectItem[];
  conditions: Condition[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
  embeds: Map<string, EmbedOptions>;
  columns?: string[];
  onConflict?: string[];
  /** GET /rpc: parameters without an operator are the function's arguments. */
  args: Array<[string, string]>;
  /** The patterns' characters counted against maxPatternLength; they weight the planned cost (plan-cost.ts). */
  patternCost: number;
};

const reserved = new Set(['select', 'columns', 'on_conflict']);

function optionsAt(map: Map<string, EmbedOptions>, path: string[]): EmbedOptions | null {
  if (path.length === 0) return null;
  const key = path.join('.');
  let options = map.get(key);
  if (!options) {
    options = { conditions: [], order: [] };
    map.set(key, options);
  }
  return options;
}

function addParameter(shape: QueryShape, key: string, value: string, limits: ShapeLimits, rpcRead: boolean): void {
  const logic = parseLogicKey(key);
  if (logic) {
    const condition = parseLogic(logic.op, logic.negate, value, limits.maxLogicDepth);
    (optionsAt(shape.embeds, logic.path)?.conditions ?? shape.conditions).push(condition);
    return;
  }
  const parts = key.split('.');
  const last = parts[parts.length - 1] ?? '';
  if (last === 'order' || last === 'limit' || last === 'offset') {
    const options = optionsAt(shape.embeds, parts.slice(0, -1));
    if (last === 'order') {
      if (options) options.order = parseOrder(value);
      else shape.order = parseOrder(value);
    } else {
      const count = parseCount(value, key);
      if (options) options[last] = count;
      else shape[last] = count;
    }
    return;
  }
  // An RPC read's parameters are its arguments unless they read as filters.
  if (rpcRead && !key.includes('.') && !isFilterValue(value)) {
    shape.args.push([key, value]);
    return;
  }
  const { path, field } = parseTreePath(key);
  const condition = parseFilter(field, value);
  (optionsAt(shape.embeds, path)?.conditions ?? shape.conditions).push(condition);
}

export function readQueryShape(
  params: URLSearchParams,
  range: string | undefined,
  limits: ShapeLimits,
  options: { rpcRead?: boolean } = {},
): QueryShape {
  const entries = [...params.entries()];
  if (entries.length > limits.maxQueryParameters) {
    throw new RestError(400, 'PGRST100', 'Too many query parameters', `At most ${limits.maxQueryParameters} are allowed.`);
  }
  const shape: QueryShape = { select: parseSelect('*'), conditions: [], order: [], embeds: new Map(), args: [], patternCost: 0 };
  for (const [key, value] of entries) {
    if (key === 'select') shape.select = parseSelect(value);
    else if (key === 'columns') shape.columns = parseNameList(value, 'columns');
    else if (key === 'on_conflict') shape.onConflict = parseNameList(value, 'on_conflict');
    else if (!reserved.has(key)) addParameter(shape, key, value, limits, !!options.rpcRead);
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
      for (const name of new Set([item.alias ?? item.relation, item.relation])) paths.add([...prefix, name].join('.'));
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

/**
 * Refuses a select nested deeper than maxEmbedDepth. Called once the statement is built
 * (nothing has run), so that a request naming an unknown relationship gets PostgREST's
 * answer for it (PGRST200) whatever its depth.
 */
export function checkEmbedDepth(shape: Pick<QueryShape, 'select'>, limits: Pick<ShapeLimits, 'maxEmbedDepth'>): void {
  const depth = (items: SelectItem[]): number =>
    Math.max(0, ...items.map((item) => (item.kind === 'embed' ? 1 + depth(item.select) : 0)));
  const deepest = depth(shape.select);
  if (deepest > limits.maxEmbedDepth) {
    throw refuse(`Resources are embedded ${deepest} levels deep; at most ${limits.maxEmbedDepth} are allowed.`, null,
      'Fetch the deeper resources with a request of their own.');
  }
}

/** Refuses more filters than maxFilters, or patterns past their budget. */
function checkCost(shape: QueryShape, limits: ShapeLimits): void {
  const count = (conditions: Condition[]): number =>
    conditions.reduce((sum, c) => sum + (c.kind === 'logic' ? count(c.conditions) : 1), 0);
  const filters = count(shape.conditions) + [...shape.embeds.values()].reduce((sum, e) => sum + count(e.conditions), 0);
  if (filters > limits.maxFilters) throw refuse(`The request has ${filters} filters; at most ${limits.maxFilters} are allowed.`);
  shape.patternCost = checkPatterns([...shape.conditions, ...[...shape.embeds.values()].flatMap((e) => e.conditions)], limits.maxPatternLength);
}
