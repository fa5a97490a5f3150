import { describe, expect, it } from 'vitest';
import { toCsv } from '../../../src/domain/csv.ts';

describe('CSV for Excel', () => {
  it('starts with a byte-order mark, has one header row and CRLF line ends', () => {
    const csv = toCsv(['Date', 'CP Hours'], [['2026-11-02', 84.9], ['2026-11-03', null]]);
    expect(csv).toBe('\uFEFFDate,CP Hours\r\n2026-11-02,84.9\r\n2026-11-03,\r\n');
  });

  it('writes plain numbers with at most two decimals, and no thousands separators', () => {
    expect(toCsv(['a', 'b', 'c', 'd'], [[17500, 182.5555, -0, 1234567.891]])).toBe('\uFEFFa,b,c,d\r\n17500,182.56,0,1234567.89\r\n');
  });

  it('quotes text with commas, quotes or line breaks, and keeps formula-like text as text', () => {
    expect(toCsv(['name'], [['Lee, Jordan'], ['Say "hi"'], ['=SUM(A1)'], ['-5 hours'], ['Zoë']])).toBe(
      '\uFEFFname\r\n"Lee, Jordan"\r\n"Say ""hi"""\r\n\'=SUM(A1)\r\n\'-5 hours\r\nZoë\r\n',
    );
  });
});
