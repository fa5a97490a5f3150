/** Daily hours and sales per labour category: reads for a date range, writes per cell. */
import { useLiveQuery } from 'dexie-react-hooks';
import type { IsoDate } from '../../domain/calendar.ts';
import { dailyCalendarColumns } from '../../domain/calendar.ts';
import type { Device } from '../device-context.tsx';
import { useDevice, writeContext } from '../device-context.tsx';
import { saveRows } from '../local-writes.ts';
import type { LocalRow } from '../synced-tables.ts';
import { showDailyValuesBeingSaved } from './month-rows.ts';

export type LabourRow = 'CP' | 'W' | 'I';
export type Metric = 'hours' | 'sales';
/** `seen`: the value shown when the person started typing (the edit's base), when known. */
export type DailyValue = { date: IsoDate; row: LabourRow; metric: Metric; value: number | null; seen?: number | null };

export function dailyInputsBetween(device: Pick<Device, 'db'>, storeId: string, from: IsoDate, to: IsoDate): Promise<LocalRow<'daily_inputs'>[]> {
  return device.db.keyRange('daily_inputs', [storeId, from], [storeId, to]).toArray();
}

/** Every stored value of the store between two dates (inclusive); undefined while loading. */
export function useDailyInputs(storeId: string | null, from: IsoDate, to: IsoDate): LocalRow<'daily_inputs'>[] | undefined {
  const device = useDevice();
  return useLiveQuery(async () => (storeId ? dailyInputsBetween(device, storeId, from, to) : []), [device, storeId, from, to]);
}

/**
 * Saves cells (one transaction); returns how many changed. Calendar columns are derived
 * from the date. The months on screen show the values at once; a failed save takes them back.
 * `source`: where the values came from when they were not typed (an imported file), for
 * the server's change history.
 */
export async function saveDailyValues(device: Device, storeId: string, values: DailyValue[], options: { source?: string } = {}): Promise<number> {
  const takeBack = showDailyValuesBeingSaved(device.db, storeId, values);
  try {
    return await saveRows(
      device.db,
      values.map(({ date, row, metric, value, seen }) => ({
        table: 'daily_inputs' as const,
        row: { store_id: storeId, entry_date: date, row_identifier: row, metric_type: metric, value, ...dailyCalendarColumns(date) },
        seen: seen === undefined ? undefined : { value: seen },
        ...(options.source ? { source: options.source } : {}),
      })),
      writeContext(device),
    );
  } catch (error) {
    takeBack();
    throw error;
  }
}
