/** Store settings, a user's dashboard preferences, and the store's service advisors. */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Device } from '../device-context.tsx';
import { useDevice, writeContext } from '../device-context.tsx';
import { saveRows } from '../local-writes.ts';
import type { LocalRow, Row } from '../synced-tables.ts';

export function useStoreSettings(storeId: string | null): LocalRow<'store_settings'> | null | undefined {
  const device = useDevice();
  return useLiveQuery(async () => (storeId ? ((await device.db.mirror('store_settings').get([storeId])) ?? null) : null), [device, storeId]);
}

export function saveStoreSettings(device: Device, storeId: string, settings: Row) {
  return saveRows(device.db, [{ table: 'store_settings', row: { ...settings, store_id: storeId } }], writeContext(device));
}

export type DashboardPreferences = { selected_kpis: string[]; kpi_order: string[] | null };

export function useDashboardPreferences(userId: string, storeId: string | null): DashboardPreferences | null | undefined {
  const device = useDevice();
  return useLiveQuery(async () => {
    if (!storeId) return null;
    const row = await device.db.mirror('user_dashboard_preferences').get([userId, storeId]);
    return row ? { selected_kpis: row.selected_kpis ?? [], kpi_order: row.kpi_order ?? null } : null;
  }, [device, userId, storeId]);
}

export function saveDashboardPreferences(device: Device, storeId: string, preferences: DashboardPreferences) {
  return saveRows(
    device.db,
    [{ table: 'user_dashboard_preferences', row: { user_id: device.userId, store_id: storeId, ...preferences } }],
    writeContext(device),
  );
}

/** Active advisors, oldest first (the order they were added). */
export function useActiveAdvisors(storeId: string | null): LocalRow<'front_end_team_advisors'>[] | undefined {
  const device = useDevice();
  return useLiveQuery(async () => {
    if (!storeId) return [];
    const rows = await device.db.mirror('front_end_team_advisors').where('store_id').equals(storeId).toArray();
    return rows.filter((row) => row.is_active !== false).sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
  }, [device, storeId]);
}

/** Every advisor of the store, active or not (a month lists those with figures in it). */
export function useStoreAdvisors(storeId: string | null): LocalRow<'front_end_team_advisors'>[] | undefined {
  const device = useDevice();
  return useLiveQuery(async () => (storeId ? device.db.mirror('front_end_team_advisors').where('store_id').equals(storeId).toArray() : []), [device, storeId]);
}

/** Adds an advisor; the name must not be blank. Returns the new advisor's id. */
export async function addAdvisor(device: Device, storeId: string, name: string): Promise<string> {
  const trimmed = name.trim();
  if (!trimmed) throw new Error('Enter a name for the advisor.');
  const id = crypto.randomUUID();
  const createdAt = new Date((device.now ?? Date.now)()).toISOString();
  await saveRows(
    device.db,
    [{ table: 'front_end_team_advisors', row: { id, store_id: storeId, advisor_name: trimmed, is_active: true, created_at: createdAt } }],
    writeContext(device),
  );
  return id;
}

/** Removes an advisor from the team (their history stays: is_active = false). */
export function retireAdvisor(device: Device, id: string) {
  return saveRows(device.db, [{ table: 'front_end_team_advisors', row: { id, is_active: false } }], writeContext(device));
}

/** The store's calendar exceptions of a year (holidays, extra openings), by date. */
export function useCalendarDays(storeId: string | null, year: number): LocalRow<'store_calendar_days'>[] | undefined {
  const device = useDevice();
  return useLiveQuery(
    async () => (storeId ? (await device.db.mirror('store_calendar_days').where('[store_id+year]').equals([storeId, year]).sortBy('calendar_date')) : []),
    [device, storeId, year],
  );
}

/**
 * Marks a date closed (a holiday), open (an extra opening) or as the pattern says (null);
 * the row stays, so a change made on another device meanwhile merges field by field.
 */
export function saveCalendarDay(device: Device, storeId: string, date: string, isWorkDay: boolean | null, note: string | null) {
  return saveRows(
    device.db,
    [{ table: 'store_calendar_days', row: { store_id: storeId, calendar_date: date, year: Number(date.slice(0, 4)), is_work_day: isWorkDay, note } }],
    writeContext(device),
  );
}

/** The store's name as the device knows it (undefined while loading, null before the first sync brings it). */
export function useStoreName(storeId: string | null): string | null | undefined {
  const device = useDevice();
  return useLiveQuery(async () => {
    if (!storeId) return null;
    const row = await device.db.mirror('stores').get([storeId]);
    return typeof row?.name === 'string' ? row.name : null;
  }, [device, storeId]);
}
