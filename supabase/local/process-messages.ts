/**
 * What the backend process (supabase/local/main.ts) tells the process that started it,
 * over Node's IPC channel when there is one: where it listens and the key browsers use.
 */
export type BackendReady = {
  type: 'backend-ready';
  url: string;
  port: number;
  anonKey: string;
  serviceRoleKey: string;
  appliedMigrations: number;
  seeded: boolean;
  /** Which JWT secret is in use and where it is kept. */
  secret: string;
  pid: number;
};

export function isBackendReady(message: unknown): message is BackendReady {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'backend-ready';
}

/** Exit code for a setting the operator must fix: restarting would fail the same way. */
export const configurationErrorExitCode = 78;
