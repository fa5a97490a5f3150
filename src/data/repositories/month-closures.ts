/** Whether a store's month is closed, and closing or reopening it (the server stamps who and when). */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Device } from '../device-context.tsx';
import { useDevice, writeContext } from '../device-context.tsx';
import { saveRows } from '../local-writes.ts';

export type MonthClosure = { closed: boolean; closedBy: string | null; closedAt: string | null };

/** `month` is 'YYYY-MM'; null while the store has never closed it. */
export function useMonthClosure(storeId: string | null, month: string): MonthClosure | null | undefined {
  const device = useDevice();
  return useLiveQuery(async () => {
    if (!storeId) return null;
    const row = await device.db.mirror('month_closures').get([storeId, `${month}-01`]);
    if (!row || row.deleted_at) return null;
    return {
      closed: row.closed === true,
      closedBy: typeof row.closed_by_name === 'string' ? row.closed_by_name : null,
      closedAt: typeof row.closed_at === 'string' ? row.closed_at : null,
    };
  }, [device, storeId, month]);
}

/** Closes or reopens a month on the device; the server refuses a reopening by anyone but an admin. */
export function setMonthClosed(device: Device, storeId: string, month: string, closed: boolean) {
  return saveRows(
    device.db,
    [{ table: 'month_closures', row: { store_id: storeId, month_start: `${month}-01`, year: Number(month.slice(0, 4)), closed } }],
    writeContext(device),
  );
}
