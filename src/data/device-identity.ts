/**
 * This device's id, made once and kept in the device database: the server records it
 * with every change this device pushes (the change history's "which device").
 */
import type { AppDatabase } from './app-database.ts';
import { readMeta, writeMeta } from './sync-store.ts';

const deviceIdKey = 'device-id';

export async function deviceIdOf(db: AppDatabase): Promise<string> {
  const known = await readMeta<string>(db, deviceIdKey);
  if (typeof known === 'string' && known) return known;
  const made = `device-${crypto.randomUUID()}`;
  await writeMeta(db, deviceIdKey, made);
  return made;
}
