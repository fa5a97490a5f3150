/**
 * CSV that opens correctly in Excel: UTF-8 with a byte-order mark (so accents and the
 * euro sign survive), one header row, CRLF line ends, ISO dates, plain numbers (a point
 * for decimals, no thousands separators, at most two decimals for computed figures).
 * Text that Excel would run as a formula (=, +, -, @ first) is kept as text.
 */

export type CsvCell = string | number | null;

const byteOrderMark = '\uFEFF';

function cellText(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) return '';
    // Two decimals at most, and no "-0": money and hours as the screens keep them.
    return String(Math.round(cell * 100) / 100 + 0);
  }
  const text = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly CsvCell[][]): string {
  return byteOrderMark + [header, ...rows].map((row) => row.map(cellText).join(',')).join('\r\n') + '\r\n';
}
