/** Monthly targets: the keys Settings edits, their labels and the spec's defaults. */

export const targetFields = [
  { key: 'hoursPerDay', label: 'Hours Per Day', fallback: 100 },
  { key: 'salesPerDay', label: 'Sales Per Day', fallback: 17500 },
  { key: 'cpElr', label: 'CP ELR', fallback: 180 },
  { key: 'warrantyElr', label: 'Warranty ELR', fallback: 180 },
  { key: 'internalElr', label: 'Internal ELR', fallback: 180 },
  { key: 'totalElr', label: 'Total ELR', fallback: 180 },
  { key: 'daysComplete', label: 'Work Days in Month', fallback: null },
  { key: 'rosOver45Days', label: 'ROs Over 45 Days', fallback: null },
  { key: 'weOweOver30Days', label: 'We Owe Over 30 Days', fallback: null },
  { key: 'grossPerEmployee', label: 'Gross Per Employee', fallback: null },
] as const;

export type TargetKey = (typeof targetFields)[number]['key'];

/** What a field shows: the stored target, or the default when none was ever stored. */
export function targetShown(stored: Record<string, number | null>, key: TargetKey): number | null {
  if (key in stored) return stored[key] ?? null;
  return targetFields.find((field) => field.key === key)?.fallback ?? null;
}
