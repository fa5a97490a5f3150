/**
 * The dealer-system import on the device (docs/import.md): what the file's values meet
 * here (the stored values of its days, its closed months, values typed in Submit mode and
 * not submitted), writing them as ordinary edits (the grid's own write, with the file as
 * their source for the change history), and the store's saved column mapping.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { IsoDate } from '../../domain/calendar.ts';
import type { DeviceCells, ImportWrite } from '../../domain/import/preview.ts';
import { closedMonthReason, importCellKey } from '../../domain/import/preview.ts';
import type { Category } from '../../domain/kpi-math.ts';
import type { Device } from '../device-context.tsx';
import { useDevice } from '../device-context.tsx';
import { numberOrNull } from '../values.ts';
import type { Metric } from './daily-inputs.ts';
import { dailyInputsBetween, saveDailyValues } from './daily-inputs.ts';
import { saveStoreSettings } from './store-and-people.ts';
import { readDrafts } from './submit-drafts.ts';

/** The stored values of the days from `from` to `to`, the closed months among them and the Submit-mode drafts there. */
export async function readImportTargets(device: Pick<Device, 'db'>, storeId: string, from: IsoDate, to: IsoDate): Promise<DeviceCells> {
  const [rows, closures, drafts] = await Promise.all([
    dailyInputsBetween(device, storeId, from, to),
    device.db.keyRange('month_closures', [storeId, `${from.slice(0, 7)}-01`], [storeId, `${to.slice(0, 7)}-01`]).toArray(),
    readDrafts(device.db, storeId),
  ]);
  const stored = new Map(rows.map((row) => [importCellKey(String(row.entry_date), row.row_identifier as Category, row.metric_type as Metric), numberOrNull(row.value)]));
  const closedMonths = new Map(
    closures
      .filter((row) => row.closed === true && !row.deleted_at)
      .map((row) => [String(row.month_start).slice(0, 7), closedMonthReason(typeof row.closed_by_name === 'string' ? row.closed_by_name : null, typeof row.closed_at === 'string' ? row.closed_at : null)]),
  );
  const cellDrafts = drafts.filter((draft) => draft.cell && draft.date >= from && draft.date <= to);
  return {
    stored,
    closedMonths,
    drafts: new Map(cellDrafts.map((draft) => [importCellKey(draft.date, draft.cell?.row as Category, draft.cell?.metric as Metric), draft.value])),
  };
}

const nothingHere: DeviceCells = { stored: new Map(), closedMonths: new Map(), drafts: new Map() };

/** readImportTargets kept current while a preview shows (nothing held while the file gives no day); undefined while the device database answers. */
export function useImportTargets(storeId: string, from: IsoDate | null, to: IsoDate | null): DeviceCells | undefined {
  const device = useDevice();
  return useLiveQuery(async () => (from && to ? readImportTargets(device, storeId, from, to) : nothingHere), [device, storeId, from, to]);
}

/**
 * Values saved per transaction: each batch is saved and queued whole or not at all, and
 * the screen can say how far a long file has come. A year of days is four or five.
 */
export const importBatchValues = 500;

/** Some batches were saved before one failed: importing the file again adds the rest (the saved ones read as unchanged). */
export class ImportStoppedError extends Error {
  constructor(
    readonly saved: number,
    readonly reason: unknown,
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

/**
 * Saves the import's values on the device and queues them for the server, as the grid's
 * edits are, each batch in one transaction. `source` goes with them to the change history
 * ("imported from FILE"). Returns how many values changed.
 */
export async function saveImportedValues(device: Device, storeId: string, writes: readonly ImportWrite[], source: string, onProgress?: (saved: number) => void): Promise<number> {
  let saved = 0;
  for (let start = 0; start < writes.length; start += importBatchValues) {
    const batch = writes.slice(start, start + importBatchValues);
    try {
      saved += await saveDailyValues(device, storeId, batch, { source });
    } catch (error) {
      if (start === 0) throw error;
      throw new ImportStoppedError(start, error);
    }
    onProgress?.(Math.min(start + importBatchValues, writes.length));
  }
  return saved;
}

/** The store's saved mapping as kept (JSON text), null when none; undefined while the device database answers. */
export function useSavedImportMapping(storeId: string | null): string | null | undefined {
  const device = useDevice();
  return useLiveQuery(async () => {
    if (!storeId) return null;
    const settings = await device.db.mirror('store_settings').get([storeId]);
    return typeof settings?.import_mapping === 'string' ? settings.import_mapping : null;
  }, [device, storeId]);
}

/** Saves the store's mapping in its settings, which sync to its other devices. */
export function saveImportMapping(device: Device, storeId: string, mapping: string) {
  return saveStoreSettings(device, storeId, { import_mapping: mapping });
}
