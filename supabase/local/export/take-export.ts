/**
 * Takes the export for a hosted Supabase project (load-script.ts) from the embedded
 * backend's database: PGlite's data folder, which one process at a time may open, so the
 * backend must be stopped (as for a backup), or a PostgreSQL server (DATABASE_URL), read
 * in one repeatable-read snapshot while anything else goes on.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseLocation } from '../backup/take-backup.ts';
import { lockDataFolder, lockHolder, secureDataFolder } from '../data-folder.ts';
import { openDatabase } from '../db/open.ts';
import type { ColumnMapping } from './hosted-auth.ts';
import { hostedFactorColumns, hostedIdentityColumns, hostedUserColumns } from './hosted-auth.ts';
import { writeLoadScript } from './load-script.ts';
import type { AccountNotes, ExportSource, StagedRows } from './read-source.ts';
import { ExportRefusedError, readSource } from './read-source.ts';

export type ExportSummary = {
  text: string;
  accounts: number;
  factors: number;
  tables: Array<{ table: string; rows: number }>;
  notes: AccountNotes;
};

/** Every column of the source's row (`s.column`) the mapping reads must exist there, or the load would fail. */
function checkMapping(what: string, mapping: readonly ColumnMapping[], staged: StagedRows): void {
  const present = new Set(staged.columns.map((column) => column.name));
  const read = new Set(mapping.flatMap((m) => [...m.from.matchAll(/\bs\.([a-z_]+)/g)].map((match) => match[1] as string)));
  const missing = [...read].filter((column) => !present.has(column));
  if (missing.length) {
    throw new ExportRefusedError(`The source's ${what} has no column ${missing.join(', ')}, which the export reads. Start the backend once with this version of the product, stop it, and export again.`);
  }
}

function summarise(source: ExportSource, takenAt: string): ExportSummary {
  checkMapping('auth.users', hostedUserColumns, source.users);
  checkMapping('auth.identities', hostedIdentityColumns, source.identities);
  if (source.factors) checkMapping('auth.mfa_factors', hostedFactorColumns, source.factors);
  return {
    text: writeLoadScript(source, { takenAt }),
    accounts: source.users.rows.length,
    factors: source.factors?.rows.length ?? 0,
    tables: source.tables.map((table) => ({ table: `${table.schema}.${table.table}`, rows: table.rows.length })),
    notes: source.notes,
  };
}

async function exportFrom(location: DatabaseLocation, engine: string): Promise<ExportSummary> {
  const db = await openDatabase(location);
  try {
    const takenAt = new Date().toISOString();
    const source = await db.transaction(async (tx) => {
      await tx.exec('set transaction isolation level repeatable read, read only');
      return readSource(tx, engine);
    });
    return summarise(source, takenAt);
  } finally {
    await db.close();
  }
}

export async function takeExport(location: DatabaseLocation): Promise<ExportSummary> {
  if (location.databaseUrl) return exportFrom({ databaseUrl: location.databaseUrl }, 'PostgreSQL server');
  const dataDir = location.dataDir;
  if (!dataDir) throw new ExportRefusedError('Nothing to export: no DATABASE_URL and no data folder.');
  const initialised = await stat(path.join(dataDir, 'PG_VERSION')).then(() => true, () => false);
  if (!initialised) throw new ExportRefusedError(`There is no database in ${dataDir} (set LOCAL_SUPABASE_DIR to the backend's data folder).`);
  const holder = await lockHolder(dataDir);
  if (holder !== null) {
    throw new ExportRefusedError(
      `The backend (pid ${holder}) has ${dataDir} open. Stop it (Ctrl-C where \`npm start\` runs) and export again; ` +
        'keep it stopped until the app points at the hosted project, so that nothing is written after the export.',
    );
  }
  const release = await lockDataFolder(dataDir);
  try {
    return await exportFrom({ dataDir }, 'PGlite');
  } finally {
    await secureDataFolder(dataDir);
    await release();
  }
}
