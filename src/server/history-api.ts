/**
 * Reads a cell's change history from the server (who changed it, from which device, when
 * it was typed or imported and from which file, when it arrived, old and new value).
 * Online only: the history lives on the server, where nobody can alter it.
 */
import type { DeviceClient } from '../sync/device-client.ts';
import type { Row, SyncedTable } from '../data/synced-tables.ts';
import { ServerError } from '../sync/errors.ts';

export type ChangeRecord = {
  field: string;
  oldValue: unknown;
  newValue: unknown;
  by: string | null;
  device: string | null;
  typedAt: string | null;
  arrivedAt: string;
  /** Where the device says the change came from when it was not typed ("imported from FILE"). */
  source: string | null;
};

/** The newest changes first, at most `limit`. `key` is the row's natural key (store included). */
export async function readCellHistory(client: DeviceClient, table: SyncedTable, key: Row, limit = 50): Promise<ChangeRecord[]> {
  const { data, error, status } = await client
    .from('change_history')
    .select('field, old_value, new_value, changed_by_name, device_id, typed_at, arrived_at, source')
    .eq('table_name', table)
    .contains('row_key', key)
    .order('arrived_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(limit);
  if (error) throw new ServerError(error.message, error.code ?? '', status);
  // The view's columns read as nullable (a view's always do); the table's field and
  // arrival time never are.
  return data.map((row) => ({
    field: row.field ?? '',
    oldValue: row.old_value,
    newValue: row.new_value,
    by: row.changed_by_name,
    device: row.device_id,
    typedAt: row.typed_at,
    arrivedAt: row.arrived_at ?? '',
    source: row.source ?? null,
  }));
}
