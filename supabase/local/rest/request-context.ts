/**
 * What every REST handler of one request shares: the selected schema and its cache, the
 * settings and limits, the preferences and media type, and the transaction runner; and
 * the response pieces PostgREST 12 builds the same way for reads, writes and calls
 * (Content-Range and its status, Content-Type, Content-Profile, a singular body).
 */
import type { StackRequest } from '../request.ts';
import type { BackendLimits } from '../service-limits.ts';
import { RestError } from './errors.ts';
import type { Media } from './media.ts';
import { contentType } from './media.ts';
import type { PlanCostCheck } from './plan-cost.ts';
import type { Preferences } from './prefer.ts';
import type { EmbedOptions, ReadContext } from './embed-source.ts';
import type { RestSettings } from './rest-settings.ts';
import type { SchemaCache, Table } from './schema-cache.ts';
import { SqlParams } from './sql-fragments.ts';
import type { RunInRole } from './transaction.ts';

export type RequestContext = {
  req: StackRequest;
  cache: SchemaCache;
  schema: string;
  /** More than one schema is exposed: responses name theirs in Content-Profile. */
  negotiated: boolean;
  limits: BackendLimits;
  settings: RestSettings;
  prefs: Preferences;
  media: Media;
  run: RunInRole;
  /** How the request's statements' planned cost is checked, or null where it is not (plan-cost.ts). */
  planCost: PlanCostCheck | null;
};

export function findTable(ctx: RequestContext, name: string): Table {
  const table = ctx.cache.bySchema.get(ctx.schema)?.tables.get(name);
  if (!table) throw new RestError(404, 'PGRST205', `Could not find the table '${ctx.schema}.${name}' in the schema cache`);
  return table;
}

export function newReadContext(ctx: RequestContext, embeds: Map<string, EmbedOptions>, params = new SqlParams()): ReadContext {
  return {
    cache: ctx.cache,
    schema: ctx.schema,
    params,
    embeds,
    aggregatesEnabled: ctx.settings.aggregatesEnabled,
    embeddedRowBudget: ctx.limits.maxEmbeddedRows,
    aggregatedRowBudget: ctx.limits.maxAggregatedRows,
    maxRowsPerEmbed: ctx.limits.maxRowsPerRead,
  };
}

/** Content-Type (and Content-Profile, when several schemas are exposed) of a response with a body. */
export function contentHeaders(ctx: RequestContext): Record<string, string> {
  return { 'Content-Type': contentType(ctx.media), ...(ctx.negotiated ? { 'Content-Profile': ctx.schema } : {}) };
}

/** PostgREST's Content-Range: `lower-upper/total`, `*` for an empty range or an unknown total. */
export function contentRange(lower: number, upper: number, total: number | undefined): string {
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*';
  return `${range}/${total ?? '*'}`;
}

/** The status and Content-Range of rows `offset..offset+n-1` out of `total` (RangeQuery.rangeStatusHeader). */
export function rangeStatus(offset: number, n: number, total: number | undefined): { status: number; range: string } {
  const upper = offset + n - 1;
  let status = 200;
  if (total !== undefined) {
    if (offset > total) status = 416;
    else if (n < total) status = 206;
  }
  return { status, range: contentRange(offset, upper, total) };
}

export function outOfRange(offset: number, total: number | undefined): RestError {
  return new RestError(416, 'PGRST103', 'Requested range not satisfiable',
    `An offset of ${offset} was requested, but there are only ${total ?? 0} rows.`);
}

/** The one row a singular (`.single()`) request wants, or PGRST116. */
export function singularBody(body: string | null, n: number): string {
  if (n !== 1) {
    throw new RestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${n} rows`);
  }
  const rows = JSON.parse(body ?? '[]') as unknown[];
  return JSON.stringify(rows[0] ?? null);
}
