/**
 * The planned-cost guard: on PGlite, a REST statement (a read, a write, an RPC call) is
 * first EXPLAINed, in its own transaction, role and parameters, so row-level security
 * and the actual filter values shape the estimate, and it is refused (413, 54000) when
 * the planner's total cost is past maxPlanCost. PGlite runs one statement at a time and
 * cannot interrupt one: the embedded-row and aggregated-row budgets count rows brought,
 * not rows read, so a request like `a?select=id,b(a(id))&b.a.value=eq.-1` reads a
 * store's figures once per figure and brings nothing, while every other member waits.
 * PostgreSQL needs no such guard: its statement timeout cuts a statement, and other
 * connections are not blocked meanwhile (docs/security.md, "Cost limits").
 */
import type { Queryable } from '../db/database.ts';
import { RestError } from './errors.ts';

type PlanNode = { 'Total Cost'?: number };

/** The planner's total cost of `sql` with `params`, as EXPLAIN (FORMAT JSON) gives it. */
export async function plannedCost(tx: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await tx.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const raw = rows[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan?: PlanNode }>;
  const cost = plan[0]?.Plan?.['Total Cost'];
  return typeof cost === 'number' ? cost : 0;
}

/** The limit, and the factor the planner's cost is multiplied by before it is compared with it. */
export type PlanCostCheck = { limit: number; weight: number };

/**
 * The planner prices a LIKE, a regular expression or a full-text match as one operator,
 * whatever its pattern, while matching costs about text x pattern length: measured on
 * PGlite, a statement running the longest LIKE allowed (100 characters) over 200-character
 * notes takes about 45 times as long per unit of planned cost as one without patterns.
 * So each pattern character the request holds (as pattern-guard.ts counts them) adds
 * half of the plain cost.
 */
export const costPerPatternCharacter = 0.5;

export function planCostCheck(limit: number, patternCost: number): PlanCostCheck {
  return { limit, weight: 1 + patternCost * costPerPatternCharacter };
}

/**
 * Refuses `sql` before it runs when its planned cost, weighted for its patterns, is past
 * the limit; no check (PostgreSQL) runs nothing extra.
 */
export async function checkPlanCost(check: PlanCostCheck | null, tx: Queryable, sql: string, params: unknown[]): Promise<void> {
  if (check === null) return;
  const cost = (await plannedCost(tx, sql, params)) * check.weight;
  if (cost <= check.limit) return;
  throw new RestError(
    413,
    '54000',
    'The request would read too many rows to answer in time',
    `The planner estimates a cost of ${Math.round(cost)}; at most ${check.limit} is allowed.`,
    'Narrow the filters or the embedded resources, or ask for fewer rows at a time.',
  );
}
