/**
 * The stack's one logger: one line per request at info level, warnings and errors.
 * LOCAL_SUPABASE_LOG=silent|warn|info|debug sets the level (tests default to warn).
 */
type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

function configuredLevel(): Level {
  const value = process.env.LOCAL_SUPABASE_LOG as Level | undefined;
  if (value && value in order) return value;
  return process.env.VITEST ? 'warn' : 'info';
}

function write(level: Level, message: string) {
  if (order[level] < order[configuredLevel()]) return;
  const line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}\n`;
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(line);
}

export const log = {
  debug: (message: string) => write('debug', message),
  info: (message: string) => write('info', message),
  warn: (message: string) => write('warn', message),
  error: (message: string) => write('error', message),
};
