/**
 * What the screens read straight from the server rather than from the device: a cell's
 * change history and the store comparison. Both need a connection by nature (the history
 * lives only on the server, where nobody can alter it; the comparison spans stores the
 * device does not hold), so they are not part of sync.
 */
import type { Row, SyncedTable } from '../data/synced-tables.ts';
import type { DeviceClient } from '../sync/device-client.ts';
import { readStoreComparison } from './comparison-api.ts';
import type { ChangeRecord } from './history-api.ts';
import { readCellHistory } from './history-api.ts';

export type ServerReads = {
  /** A cell's change history, newest first. */
  cellHistory(table: SyncedTable, key: Row): Promise<ChangeRecord[]>;
  /** Every store's rows for a month and the same month last year (admins only). */
  storeComparison(month: string): Promise<unknown>;
};

export function createServerReads(client: DeviceClient): ServerReads {
  return {
    cellHistory: (table, key) => readCellHistory(client, table, key),
    storeComparison: (month) => readStoreComparison(client, month),
  };
}
