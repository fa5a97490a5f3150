/** A stored number field as a number, or null when empty (the server sends numerics as numbers or text). */
export function numberOrNull(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}
