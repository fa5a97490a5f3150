/**
 * Reading a dealer system's export as lines of cells: the bytes decoded (UTF-8, or the
 * Windows code page older systems and Excel write, or UTF-16 with its mark), the column
 * separator found (comma, semicolon or tab; Excel's "sep=;" first line is obeyed), quoted
 * cells read as RFC 4180 has them (a doubled quote inside, separators and line breaks
 * allowed). What is not a CSV export (a workbook, a PDF, an image, one column of text) is
 * refused whole with a sentence saying what to do instead. docs/import.md.
 */
import { importLimits } from '../limits.ts';

export type Delimiter = ',' | ';' | '\t';
export const delimiters: readonly Delimiter[] = [',', ';', '\t'];

/** One line of the file as cells; `line` is the file's line number where it starts (1-based). */
export type CsvRecord = { line: number; cells: string[] };
export type CsvFile = { delimiter: Delimiter; records: CsvRecord[] };
export type Refused = { ok: false; message: string };

const grouped = new Intl.NumberFormat('en-US');
const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB`;

/** File kinds people pick by mistake, by their first bytes. */
const notText: Array<{ starts: number[]; message: string }> = [
  { starts: [0x50, 0x4b, 0x03, 0x04], message: 'This is an Excel workbook (or another zipped file), not a CSV export. Open it in Excel and save it as "CSV (Comma delimited)", then import that file.' },
  { starts: [0xd0, 0xcf, 0x11, 0xe0], message: 'This is an older Excel workbook (.xls), not a CSV export. Open it in Excel and save it as "CSV (Comma delimited)", then import that file.' },
  { starts: [0x25, 0x50, 0x44, 0x46], message: 'This is a PDF, not a CSV export. Export the report from the dealer system as CSV (or Excel CSV) instead.' },
];

/**
 * The file's text, or why it cannot be one: too large, a workbook or PDF, or binary. A
 * file that is not valid UTF-8 is read as Windows-1252, which older dealer systems and
 * Excel write (a euro sign or an accent would otherwise be lost).
 */
export function decodeFile(bytes: Uint8Array): { ok: true; text: string } | Refused {
  if (bytes.length > importLimits.fileBytes) {
    return { ok: false, message: `This file is ${megabytes(bytes.length)}; the import reads files up to ${megabytes(importLimits.fileBytes)} (several years of days). Export a shorter period.` };
  }
  if (bytes.length === 0) return { ok: false, message: 'This file is empty.' };
  for (const kind of notText) if (kind.starts.every((byte, index) => bytes[index] === byte)) return { ok: false, message: kind.message };
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes);
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes);
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = windows1252(bytes);
    }
  }
  // Text files hold no control characters but tabs and line ends; a few in a large file are noise, many are binary.
  let controls = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x09 || (code > 0x0d && code < 0x20)) controls += 1;
  }
  if (controls > 0 && controls * 100 > text.length) return { ok: false, message: 'This file is not text: choose the CSV export of the labour sales report.' };
  return { ok: true, text: text.replace(/^\uFEFF/, '') };
}

/**
 * Windows-1252 differs from Latin-1 only in 0x80 to 0x9F (the euro sign, curly quotes,
 * dashes...). Decoded here rather than by TextDecoder, which some runtimes read as Latin-1.
 */
const windows1252High = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
function windows1252(bytes: Uint8Array): string {
  let text = '';
  for (let start = 0; start < bytes.length; start += 8192) {
    const chunk = bytes.subarray(start, start + 8192);
    text += String.fromCharCode(...chunk).replace(/[\u0080-\u009f]/g, (c) => windows1252High[c.charCodeAt(0) - 0x80] as string);
  }
  return text;
}

type Parsed = { records: CsvRecord[] } | Refused;

/**
 * Splits text into records with one separator. Finding the separator reads a sample:
 * `maxRecords` records, however wide.
 */
function split(text: string, delimiter: Delimiter, maxRecords = Infinity, firstLine = 1): Parsed {
  const maxColumns = maxRecords === Infinity ? importLimits.columns : Infinity;
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = firstLine;
  let recordLine = firstLine;
  let quoted = false;
  let quoteLine = 0;
  let index = 0;
  // Set by endRecord: a line wider than the limit stops the reading.
  const wide = { line: null as number | null };
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > maxColumns) wide.line = recordLine;
    // Blank lines (or only separators) carry nothing.
    else if (cells.some((value) => value.trim() !== '')) records.push({ line: recordLine, cells });
    cells = [];
    cell = '';
  };
  while (index < text.length && records.length < maxRecords && wide.line === null) {
    const char = text[index] as string;
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          cell += '"';
          index += 2;
          continue;
        }
        quoted = false;
      } else {
        if (char === '\n' || (char === '\r' && text[index + 1] !== '\n')) line += 1;
        cell += char;
      }
      index += 1;
      continue;
    }
    if (char === '"' && cell.trim() === '') {
      quoted = true;
      quoteLine = line;
      cell = '';
    } else if (char === delimiter) {
      cells.push(cell);
      cell = '';
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else {
      cell += char;
    }
    index += 1;
  }
  // A sample stops where it stops; the whole file's reading names an unclosed quote.
  if (quoted && maxRecords === Infinity) return { ok: false, message: `The quote opened on line ${grouped.format(quoteLine)} is never closed, so the file cannot be read past it. Export the report again.` };
  if (wide.line === null && records.length < maxRecords && (cell !== '' || cells.length > 0)) endRecord();
  if (wide.line !== null) {
    return { ok: false, message: `Line ${grouped.format(wide.line)} has more than ${importLimits.columns} columns; a labour sales report has a few dozen at most. Is this the right file?` };
  }
  return { records };
}

/** The separator that splits the first lines into the same number of columns most often. */
function findDelimiter(text: string): Delimiter | null {
  let best: { delimiter: Delimiter; score: number } | null = null;
  for (const delimiter of delimiters) {
    const sample = split(text, delimiter, 30);
    if (!('records' in sample)) continue;
    const counts = new Map<number, number>();
    for (const record of sample.records) if (record.cells.length > 1) counts.set(record.cells.length, (counts.get(record.cells.length) ?? 0) + 1);
    const score = Math.max(0, ...counts.values());
    if (score > 0 && (!best || score > best.score)) best = { delimiter, score };
  }
  return best?.delimiter ?? null;
}

/**
 * The file's lines as cells. `delimiter`: the one the mapping names; without it the file
 * says (Excel's "sep=" line) or the first lines show it.
 */
export function readCsv(text: string, delimiter?: Delimiter): ({ ok: true } & CsvFile) | Refused {
  let body = text.replace(/^\uFEFF/, '');
  let firstLine = 1;
  let stated: Delimiter | undefined;
  const sep = /^sep=(.)\r?\n/i.exec(body);
  if (sep) {
    stated = delimiters.find((d) => d === sep[1]);
    body = body.slice(sep[0].length);
    firstLine = 2;
  }
  const chosen = delimiter ?? stated ?? findDelimiter(body);
  const notCsv = 'This file has no columns separated by commas, semicolons or tabs, so it is not a CSV export. Export the labour sales report as CSV.';
  if (!chosen) return { ok: false, message: notCsv };
  const parsed = split(body, chosen, Infinity, firstLine);
  if (!('records' in parsed)) return parsed;
  if (!parsed.records.some((record) => record.cells.filter((value) => value.trim() !== '').length > 1)) return { ok: false, message: notCsv };
  return { ok: true, delimiter: chosen, records: parsed.records };
}
