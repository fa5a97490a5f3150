/** `postgres_changes` filters as realtime-js sends them: `column=op.value`, one per binding. */

export type Filter = { column: string; op: string; value: string | string[] };

const filterPattern = /^([A-Za-z0-9_]+)=(eq|neq|lt|lte|gt|gte|in)\.(.*)$/s;

/** The filter, undefined when there is none, or null when it cannot be read. */
export function parseFilter(raw: unknown): Filter | undefined | null {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const match = typeof raw === 'string' ? filterPattern.exec(raw) : null;
  if (!match) return null;
  const [, column, op, value] = match as unknown as [string, string, string, string];
  if (op === 'in') {
    const list = value.replace(/^\(|\)$/g, '').split(',').map((v) => v.trim().replace(/^"|"$/g, ''));
    return { column, op, value: list };
  }
  return { column, op, value };
}

export function matchesFilter(filter: Filter | undefined, row: Record<string, unknown> | undefined): boolean {
  if (!filter) return true;
  if (!row || !(filter.column in row)) return false;
  const actual = row[filter.column];
  const text = actual === null || actual === undefined ? null : String(actual);
  if (filter.op === 'in') return text !== null && (filter.value as string[]).includes(text);
  const wanted = filter.value as string;
  if (filter.op === 'eq') return text === wanted;
  if (filter.op === 'neq') return text !== wanted;
  if (text === null) return false;
  const [a, b] = Number.isFinite(Number(text)) && Number.isFinite(Number(wanted)) ? [Number(text), Number(wanted)] : [text, wanted];
  if (filter.op === 'lt') return a < b;
  if (filter.op === 'lte') return a <= b;
  if (filter.op === 'gt') return a > b;
  return a >= b;
}
