/** Monthly targets: the keys Settings edits, their labels and their defaults (docs/figures.md, "KPI tiles"). */

export const targetFields = [
  { key: 'hoursPerDay', label: 'Hours Per Day', fallback: 100 },
  { key: 'salesPerDay', label: 'Sales Per Day', fallback: 17500 },
  { key: 'cpElr', label: 'CP ELR', fallback: 180 },
  { key: 'warrantyElr', label: 'Warranty ELR', fallback: 180 },
  { key: 'internalElr', label: 'Internal ELR', fallback: 180 },
  // Empty: the category targets weighted by the month's hours (docs/figures.md).
  { key: 'totalElr', label: 'Total ELR', fallback: null },
  { key: 'cpHoursPerRo', label: 'CP Hours Per RO', fallback: 2.5 },
  { key: 'rosOver30Days', label: 'ROs Over 30 Days', fallback: null },
  { key: 'weOweOver30Days', label: 'We Owe Over 30 Days', fallback: null },
  { key: 'shopSupplies', label: 'Shop Supplies', fallback: null },
  { key: 'rosOver45Days', label: 'ROs Over 45 Days', fallback: null },
  { key: 'grossPerEmployee', label: 'Gross Per Employee', fallback: null },
] as const;

export type TargetKey = (typeof targetFields)[number]['key'];

/** What a field shows: the stored target, or the default when none was ever stored. */
export function targetShown(stored: Record<string, number | null>, key: TargetKey): number | null {
  if (key in stored) return stored[key] ?? null;
  return targetFields.find((field) => field.key === key)?.fallback ?? null;
}

/** A note under a field whose empty value means something. */
export const targetHints: Partial<Record<TargetKey, string>> = {
  totalElr: 'Leave empty to use the CP, Warranty and Internal targets weighted by the month’s hours.',
  weOweOver30Days: 'The Due Bills Over 30 Days tile: at most this many.',
  rosOver30Days: 'At most this many repair orders open over 30 days.',
  shopSupplies: 'Shop supplies for the whole month, in dollars.',
};
