/** The KPI tiles a person can put on the dashboard, in their default order. */

export const kpiCatalogue = [
  { id: 'monthComplete', label: 'Month Complete', category: 'Time Tracking' },
  { id: 'hoursPerDay', label: 'Hours Per Day', category: 'Labor Metrics' },
  { id: 'salesPerDay', label: 'Sales Per Day', category: 'Revenue Metrics' },
  { id: 'cpElr', label: 'CP ELR', category: 'Labor Metrics' },
  { id: 'warrantyElr', label: 'Warranty ELR', category: 'Labor Metrics' },
  { id: 'internalElr', label: 'Internal ELR', category: 'Labor Metrics' },
  { id: 'totalElr', label: 'Total ELR', category: 'Labor Metrics' },
  { id: 'cpHoursPerRo', label: 'CP Hours Per RO', category: 'Productivity' },
  { id: 'rosOver30Days', label: 'ROs Over 30 Days', category: 'Operational Tracking' },
  { id: 'dueBillsOver30Days', label: 'Due Bills Over 30 Days', category: 'Operational Tracking' },
  { id: 'shopSupplies', label: 'Shop Supplies', category: 'Revenue Metrics' },
  { id: 'workMixChart', label: 'Work Mix', category: 'Analytics' },
] as const;

export type KpiId = (typeof kpiCatalogue)[number]['id'];

export const allKpiIds: KpiId[] = kpiCatalogue.map((kpi) => kpi.id);

export function isKpiId(value: unknown): value is KpiId {
  return typeof value === 'string' && (allKpiIds as string[]).includes(value);
}

/**
 * The tiles to show, in order: the saved order filtered to the selection, then any
 * selected tile the order does not mention. Unknown ids are dropped.
 */
export function orderedSelection(selected: readonly unknown[], order: readonly unknown[] | null): KpiId[] {
  const chosen = selected.filter(isKpiId);
  const ordered = (order ?? []).filter(isKpiId).filter((id) => chosen.includes(id));
  return [...new Set([...ordered, ...chosen])];
}
