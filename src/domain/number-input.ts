/**
 * Reading a number a person typed: empty is "no value" (null), a number is a number,
 * anything else is refused with a message, never guessed at.
 */
export type ParsedNumber = { ok: true; value: number | null } | { ok: false; message: string };

export function parseNumberInput(text: string, options: { integer?: boolean; label?: string } = {}): ParsedNumber {
  const trimmed = text.trim().replace(/,/g, '');
  if (trimmed === '') return { ok: true, value: null };
  const value = Number(trimmed);
  const what = options.label ? `${options.label}: ` : '';
  if (!Number.isFinite(value)) return { ok: false, message: `${what}"${text}" is not a number.` };
  if (options.integer && !Number.isInteger(value)) return { ok: false, message: `${what}enter a whole number.` };
  return { ok: true, value };
}
