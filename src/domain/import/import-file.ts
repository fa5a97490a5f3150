/**
 * The import's steps from a chosen file to a read report: the file decoded, the store's
 * saved mapping used when the file has its headings (else a suggested one, which the
 * person checks), the choices the mapping form offers (the headings line's cells, the
 * pay-type codes in the file), and the report read with the mapping as it stands.
 * docs/import.md.
 */
import { serviceLimits } from '../limits.ts';
import type { CsvFile, Refused } from './csv-file.ts';
import { decodeFile, readCsv } from './csv-file.ts';
import type { ImportMapping } from './mapping.ts';
import { findHeadingsFor, guessHeadings, mappingProblem, payTypesInFile, suggestMapping } from './mapping.ts';
import type { ReadReport } from './read-report.ts';
import { readReport } from './read-report.ts';

export type OpenedReport = { ok: true; text: string; mapping: ImportMapping; fromSaved: boolean };

/** The file's text and the mapping to start from: the saved one when the file has its headings, else a suggestion. */
export function openReport(bytes: Uint8Array, saved: ImportMapping | null): OpenedReport | Refused {
  const decoded = decodeFile(bytes);
  if (!decoded.ok) return decoded;
  if (saved) {
    const file = readCsv(decoded.text, saved.delimiter);
    if (file.ok && findHeadingsFor(file.records, saved) >= 0) return { ok: true, text: decoded.text, mapping: saved, fromSaved: true };
  }
  const file = readCsv(decoded.text);
  if (!file.ok) return file;
  return { ok: true, text: decoded.text, mapping: suggestMapping(file).mapping, fromSaved: false };
}

export type MappingChoices = { ok: true; file: CsvFile; headingLine: number; headings: string[]; payTypes: string[] };

/** What the mapping form offers for the file read with the mapping's separator: the headings line's cells and the pay types found. */
export function mappingChoices(text: string, mapping: ImportMapping): MappingChoices | Refused {
  const file = readCsv(text, mapping.delimiter);
  if (!file.ok) return file;
  const found = findHeadingsFor(file.records, mapping);
  const index = found >= 0 ? found : guessHeadings(file.records);
  const record = file.records[index];
  if (!record) return { ok: false, message: 'This file holds no lines to import.' };
  const headings = [...new Set(record.cells.map((cell) => cell.trim()).filter((cell) => cell !== ''))];
  const payTypes = mapping.layout === 'pay-type' && mapping.payTypeColumn ? payTypesInFile(file, index, mapping.payTypeColumn) : [];
  return { ok: true, file, headingLine: record.line, headings, payTypes };
}

/** The report read with the mapping as it stands; refused whole when the mapping is incomplete or the file lacks its headings. */
export function readWithMapping(text: string, mapping: ImportMapping): ReadReport | Refused {
  const problem = mappingProblem(mapping);
  if (problem) return { ok: false, message: problem };
  const file = readCsv(text, mapping.delimiter);
  if (!file.ok) return file;
  return readReport(file, mapping);
}

/**
 * What the change history records as the values' source: "imported from FILE", the file's
 * name as the device knows it, within the length the server keeps.
 */
export function importSource(fileName: string): string {
  return [...`imported from ${fileName.trim() || 'a file'}`].slice(0, serviceLimits.changeSourceLength).join('');
}
