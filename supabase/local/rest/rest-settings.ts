/**
 * Settings of the embedded REST API that hosted Supabase has as PostgREST settings:
 * the exposed schemas (db-schemas), aggregates (db-aggregates-enabled), `explain()`
 * (db-plan-enabled) and how transactions end (db-tx-end). From the environment
 * (README, "The embedded backend"), overridden by a test's options. The defaults are
 * hosted Supabase's: aggregates and plans off, every transaction committed.
 */

export type TxEnd = 'commit' | 'commit-allow-override' | 'rollback' | 'rollback-allow-override';

export type RestSettings = {
  /** The exposed schemas; the first is the default for requests without a profile header. */
  schemas: string[];
  aggregatesEnabled: boolean;
  planEnabled: boolean;
  txEnd: TxEnd;
};

export const restVariables = {
  schemas: 'LOCAL_SUPABASE_DB_SCHEMAS',
  aggregatesEnabled: 'LOCAL_SUPABASE_DB_AGGREGATES_ENABLED',
  planEnabled: 'LOCAL_SUPABASE_DB_PLAN_ENABLED',
  txEnd: 'LOCAL_SUPABASE_DB_TX_END',
} as const satisfies Record<keyof RestSettings, string>;

const txEnds: TxEnd[] = ['commit', 'commit-allow-override', 'rollback', 'rollback-allow-override'];

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name]?.trim();
  if (!value) return false;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new Error(`${name} must be true or false, not "${value}".`);
}

function schemaList(raw: string | undefined): string[] {
  if (!raw?.trim()) return ['public'];
  const schemas = raw.split(',').map((s) => s.trim());
  if (schemas.some((s) => !/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/.test(s))) {
    throw new Error(`${restVariables.schemas} must be a comma-separated list of schema names, not "${raw}".`);
  }
  return [...new Set(schemas)];
}

export function resolveRestSettings(overrides: Partial<RestSettings> = {}, env: NodeJS.ProcessEnv = process.env): RestSettings {
  const txEnd = env[restVariables.txEnd]?.trim() || 'commit';
  if (!txEnds.includes(txEnd as TxEnd)) throw new Error(`${restVariables.txEnd} must be one of ${txEnds.join(', ')}, not "${txEnd}".`);
  return {
    schemas: schemaList(env[restVariables.schemas]),
    aggregatesEnabled: flag(env, restVariables.aggregatesEnabled),
    planEnabled: flag(env, restVariables.planEnabled),
    txEnd: txEnd as TxEnd,
    ...overrides,
  };
}

/** Whether a `Prefer: tx=...` may decide how this transaction ends. */
export const txOverridable = (txEnd: TxEnd) => txEnd.endsWith('-allow-override');
