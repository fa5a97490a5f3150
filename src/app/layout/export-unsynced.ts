import type { AppDatabase } from '../../data/app-database.ts';
import { exportUnsynced } from '../../data/sync-store.ts';
import { downloadText } from '../../ui/download.ts';

/** Downloads every edit not yet on the server as a JSON file the person can keep. */
export async function exportUnsyncedFile(db: AppDatabase): Promise<void> {
  const content = JSON.stringify(await exportUnsynced(db), null, 2);
  downloadText(`unsynced-edits-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.json`, content, 'application/json');
}
