/** Installs the embedded-row budget (embed-budget.sql) the REST statements spend from. */
import { readFile } from 'node:fs/promises';
import type { Database } from '../db/database.ts';

export async function prepareRestLimits(db: Database): Promise<void> {
  await db.exec(await readFile(new URL('./embed-budget.sql', import.meta.url), 'utf8'));
}
