/**
 * One REST statement around a level's SELECT, as PostgREST 12's Statements.hs shapes it:
 * the rows as the source, an optional count of the rows that match, and one body built
 * by Postgres in the negotiated media type (a JSON array, CSV), plus the row count and,
 * for upserts, how many rows were inserted. With a plan media type the whole statement
 * is EXPLAINed instead (runPlan).
 */
import type { Queryable } from '../db/database.ts';
import type { Media } from './media.ts';
import type { PlanCostCheck } from './plan-cost.ts';
import { checkPlanCost } from './plan-cost.ts';

export type StatementParts = {
  /** Common table expressions that must come first (a write's `w`). */
  ctes?: string[];
  source: string;
  /** `SELECT 1 ...` rows to count exactly, when a count is wanted. */
  count?: string;
  /** A body is built (otherwise only rows are counted). */
  body: boolean;
  media: Media;
  /** The statement read pgrst.inserted (upserts). */
  inserted?: boolean;
};

/** The body of the rows `r` of `pgrst_source` in `media`. */
function bodySql(media: Exclude<Media, { kind: 'plan' }>): string {
  if (media.kind === 'csv') {
    const header =
      `(SELECT coalesce(string_agg(a.k, ','), '') FROM (SELECT json_object_keys(r) AS k FROM ` +
      `(SELECT row_to_json(hh) AS r FROM pgrst_source AS hh LIMIT 1) s) a)`;
    const rows = `coalesce(string_agg(substring(r::text, 2, length(r::text) - 2), E'\\n'), '')`;
    return `${header} || E'\\n' || ${rows}`;
  }
  if (media.kind === 'geojson') {
    return `json_build_object('type', 'FeatureCollection', 'features', coalesce(json_agg(ST_AsGeoJSON(r)::json), '[]'))::text`;
  }
  const array = media.stripNulls ? 'json_strip_nulls(json_agg(r))' : 'json_agg(r)';
  return `coalesce(${array}, '[]')::text`;
}

export function statementSql(parts: StatementParts): string {
  const ctes = [...(parts.ctes ?? []), `pgrst_source AS (${parts.source})`];
  if (parts.count) ctes.push(`pgrst_source_count AS (${parts.count})`);
  const media = parts.media.kind === 'plan' ? parts.media.for : parts.media;
  const select = [
    parts.count ? '(SELECT count(*) FROM pgrst_source_count)::text AS total' : 'null::text AS total',
    'count(*)::text AS n',
    parts.body ? `${bodySql(media)} AS body` : 'null::text AS body',
    parts.inserted ? `nullif(current_setting('pgrst.inserted', true), '')::text AS inserted` : 'null::text AS inserted',
  ];
  return `WITH ${ctes.join(', ')} SELECT ${select.join(', ')} FROM (SELECT * FROM pgrst_source) r`;
}

export type StatementResult = { total?: number; n: number; body: string | null; inserted?: number };

export async function runStatement(tx: Queryable, sql: string, params: unknown[]): Promise<StatementResult> {
  const { rows } = await tx.query<{ total: string | null; n: string; body: string | null; inserted: string | null }>(sql, params);
  const row = rows[0];
  return {
    total: row?.total == null ? undefined : Number(row.total),
    n: Number(row?.n ?? 0),
    body: row?.body ?? null,
    inserted: row?.inserted == null ? undefined : Number(row.inserted),
  };
}

/**
 * EXPLAIN's output of `sql` (`explain()`): the text plan's lines, or the JSON plan as
 * text. With `analyze` the statement runs, so it first passes the planned-cost guard as
 * it would when asked for its rows.
 */
export async function runPlan(tx: Queryable, sql: string, params: unknown[], media: Extract<Media, { kind: 'plan' }>, check: PlanCostCheck | null): Promise<string> {
  if (media.options.includes('analyze')) await checkPlanCost(check, tx, sql, params);
  const options = [`FORMAT ${media.format.toUpperCase()}`, ...media.options.map((o) => o.toUpperCase())];
  const { rows } = await tx.query<Record<string, unknown>>(`EXPLAIN (${options.join(', ')}) ${sql}`, params);
  const lines = rows.map((row) => row['QUERY PLAN']);
  if (media.format === 'json') return typeof lines[0] === 'string' ? lines[0] : JSON.stringify(lines[0]);
  return lines.map((line) => `${String(line)}\n`).join('');
}

/** The planner's estimate of the rows `countSql` counts (`Prefer: count=planned`). */
export async function plannedCount(tx: Queryable, countSql: string, params: unknown[]): Promise<number | undefined> {
  const { rows } = await tx.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${countSql}`, params);
  const raw = rows[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan?: { 'Plan Rows'?: number } }>;
  const estimate = plan[0]?.Plan?.['Plan Rows'];
  return typeof estimate === 'number' ? estimate : undefined;
}
