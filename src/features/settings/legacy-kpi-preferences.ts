/**
 * Older versions kept the dashboard choice in local storage (selectedKPIs,
 * kpiDashboardOrder). Once per device it moves into the database, where every device
 * of the person sees it, and the local keys are removed. A choice already in the
 * database wins over the old local one.
 */
import { useEffect } from 'react';
import type { Device } from '../../data/device-context.tsx';
import { useDevice } from '../../data/device-context.tsx';
import { saveDashboardPreferences } from '../../data/repositories/store-and-people.ts';
import { isKpiId } from '../../domain/kpis.ts';

const keys = { selected: 'selectedKPIs', order: 'kpiDashboardOrder' } as const;

function readList(key: string): string[] | null {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? 'null') as unknown;
    return Array.isArray(value) ? value.filter(isKpiId) : null;
  } catch {
    return null;
  }
}

export async function migrateLegacyKpiPreferences(device: Device, storeId: string): Promise<boolean> {
  const selected = readList(keys.selected);
  const order = readList(keys.order);
  if (!selected && !order) return false;
  const existing = await device.db.mirror('user_dashboard_preferences').get([device.userId, storeId]);
  if (!existing && selected) await saveDashboardPreferences(device, storeId, { selected_kpis: selected, kpi_order: order });
  localStorage.removeItem(keys.selected);
  localStorage.removeItem(keys.order);
  return !existing && !!selected;
}

export function useLegacyKpiMigration(storeId: string | null): void {
  const device = useDevice();
  useEffect(() => {
    if (storeId) void migrateLegacyKpiPreferences(device, storeId);
  }, [device, storeId]);
}
