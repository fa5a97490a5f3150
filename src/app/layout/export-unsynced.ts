import type { AppDatabase } from '../../data/app-database.ts';
import { exportUnsynced } from '../../data/sync-store.ts';

/** Downloads every edit not yet on the server as a JSON file the person can keep. */
export async function exportUnsyncedFile(db: AppDatabase): Promise<void> {
  const content = JSON.stringify(await exportUnsynced(db), null, 2);
  const url = URL.createObjectURL(new Blob([content], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `unsynced-edits-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.json`;
  link.click();
  URL.revokeObjectURL(url);
}
