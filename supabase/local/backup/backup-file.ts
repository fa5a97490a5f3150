/**
 * The backup file: a plain SQL data dump (pg_dump --data-only, one INSERT per batch of
 * rows, with column names) under a header of our own. The header says which migrations
 * the data was written under, so a restore first builds exactly that schema from
 * supabase/migrations, loads the rows, and only then applies newer migrations; and which
 * transaction id the source had reached, because devices remember that number as their
 * sync position (pull_changes) and the restored database must go on from beyond it.
 *
 * The body is what pg_dump wrote, less two things a PostgreSQL 15 server or a plain
 * script runner cannot take: psql's \restrict / \unrestrict lines (pg_dump 15.14+) and
 * `SET transaction_timeout` (a PostgreSQL 17 setting, 0 by default anyway).
 */

export const backupFormat = 1;
const marker = '-- Service Department Dashboard backup';

export type BackupHeader = {
  format: number;
  takenAt: string;
  /** Engine and server version the dump was taken from, for people reading the file. */
  source: string;
  /** Versions (file name prefixes) of the migrations applied in the source. */
  migrations: string[];
  /** The source's next transaction id when the dump was taken. */
  nextTransactionId: string;
};

export class BackupFileError extends Error {}

export function writeBackupFile(header: BackupHeader, dump: string): string {
  const lines = [
    `${marker} (format ${header.format})`,
    `-- taken-at: ${header.takenAt}`,
    `-- source: ${header.source}`,
    `-- migrations: ${header.migrations.join(' ')}`,
    `-- next-transaction-id: ${header.nextTransactionId}`,
    '-- Restore with `npm run restore -- <this file>` into an empty data folder or database.',
    '-- It holds password hashes and session tokens: keep it as private as the data folder.',
    '',
  ];
  return `${lines.join('\n')}\n${cleanDump(dump)}`;
}

/** Removes what only psql or PostgreSQL 17+ understands; everything else is kept verbatim. */
export function cleanDump(dump: string): string {
  const lines = dump.split('\n');
  const restrictAt = lines.findIndex((line, i) => i < 20 && /^\\restrict \S+$/.test(line));
  if (restrictAt >= 0) {
    const key = (lines[restrictAt] ?? '').slice('\\restrict '.length);
    lines.splice(restrictAt, 1);
    const unrestrictAt = lines.lastIndexOf(`\\unrestrict ${key}`);
    if (unrestrictAt >= 0) lines.splice(unrestrictAt, 1);
  }
  const timeoutAt = lines.findIndex((line, i) => i < 40 && line === 'SET transaction_timeout = 0;');
  if (timeoutAt >= 0) lines.splice(timeoutAt, 1);
  return lines.join('\n');
}

export function readBackupFile(text: string): { header: BackupHeader; body: string } {
  const firstLine = text.slice(0, text.indexOf('\n'));
  const format = /^-- Service Department Dashboard backup \(format (\d+)\)$/.exec(firstLine);
  if (!format) throw new BackupFileError('This is not a backup made by `npm run backup` (its first line is not the backup header).');
  if (Number(format[1]) !== backupFormat) {
    throw new BackupFileError(`This backup has format ${format[1]}; this version of the product reads format ${backupFormat}.`);
  }
  const end = text.indexOf('\n\n');
  const head = text.slice(0, end);
  const field = (name: string) => {
    const match = new RegExp(`^-- ${name}: (.*)$`, 'm').exec(head);
    if (!match) throw new BackupFileError(`The backup header has no "${name}" line; the file is damaged.`);
    return (match[1] ?? '').trim();
  };
  const migrations = field('migrations').split(/\s+/).filter(Boolean);
  const nextTransactionId = field('next-transaction-id');
  if (!migrations.every((version) => /^\d+$/.test(version)) || !/^\d+$/.test(nextTransactionId)) {
    throw new BackupFileError('The backup header is damaged (migrations or transaction id).');
  }
  const body = text.slice(end + 2);
  if (!/^-- PostgreSQL database dump complete$/m.test(body)) {
    throw new BackupFileError('The backup is incomplete: it does not end with pg_dump\'s "dump complete" line.');
  }
  return {
    header: { format: backupFormat, takenAt: field('taken-at'), source: field('source'), migrations, nextTransactionId },
    body,
  };
}
