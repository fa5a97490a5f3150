import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { offlineFailures } from './support/browser.ts';
import { SyncBarModel } from './support/pages.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** The text of a PDF, by poppler's pdftotext (CI installs poppler-utils). */
async function pdfText(pdf: Buffer): Promise<{ text: string; pages: number; size: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pack-pdf-'));
  try {
    const file = path.join(dir, 'pack.pdf');
    await writeFile(file, pdf);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    return { text, pages: Number(/Pages:\s+(\d+)/.exec(info)?.[1]), size: /Page size:\s+(.+)/.exec(info)?.[1] ?? '' };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A CSV as Excel reads it: the byte-order mark, then rows of comma-separated cells (quotes honoured). */
function parseCsv(text: string): string[][] {
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const rows: string[][] = [];
  for (const line of text.slice(1).split('\r\n').filter(Boolean)) {
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < line.length; i += 1) {
      const c = line[i];
      if (quoted && c === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = !quoted;
      else if (c === ',' && !quoted) {
        cells.push(cell);
        cell = '';
      } else cell += c;
    }
    rows.push([...cells, cell]);
  }
  return rows;
}

describe('the month-end pack', () => {
  let e2e: E2E;
  let page: Page;
  let context: BrowserContext;
  let lastMonth: string;

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page, context } = await e2e.signedInPage('manager@example.com', { width: 1366, height: 900 }));
    lastMonth = (await e2e.stack.database.query<{ m: string }>(`select to_char(current_date - interval '1 month', 'YYYY-MM') as m`)).rows[0]?.m ?? '';
    await new SyncBarModel(page).waitForSynced();
  });
  afterAll(() => e2e?.close());

  async function openPack() {
    await page.goto(`${e2e.appUrl}/daily?month=${lastMonth}`);
    await page.getByRole('link', { name: 'Print month' }).click();
    await page.getByRole('heading', { name: /^Demo Motors: / }).waitFor();
    await page.getByRole('table', { name: 'Advisor score card' }).waitFor({ timeout: 20_000 });
  }

  it('prints every section on A4 and on Letter, without the app around it', async () => {
    await openPack();
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('nav#sidebar').isVisible()).toBe(false);
    const sections = ['KPI tiles', 'Needed per remaining day', 'Daily grid totals', 'Weekly summaries', 'Monthly table, with', 'Advisor score card', 'Open warnings'];
    for (const [format, size] of [['A4', /\(A4\)$/], ['Letter', /\(letter\)$/]] as const) {
      const pdf = await pdfText(await page.pdf({ format, printBackground: true }));
      expect(pdf.size).toMatch(size);
      expect(pdf.pages).toBeGreaterThanOrEqual(1);
      for (const heading of sections) expect(pdf.text, `${format}: ${heading}`).toContain(heading);
      expect(pdf.text).not.toContain('Sync details');
    }
    await page.emulateMedia({ media: 'screen' });
    await e2e.screenshot(page, 'month-pack', { fullPage: true });
  });

  it('downloads CSV files that read back to the figures on screen and on the server, also offline', async () => {
    await openPack();
    // Offline on purpose: the browser logs the requests it cannot make.
    e2e.expectConsoleErrors(offlineFailures);
    await context.setOffline(true);
    const download = async (name: string) => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
      return readFile((await file.path()) ?? '', 'utf8');
    };
    const daily = parseCsv(await download('Daily inputs (CSV)'));
    expect(daily[0]).toEqual(['Date', 'CP Hours', 'CP Sales', 'W Hours', 'W Sales', 'I Hours', 'I Sales']);
    const [sums] = (
      await e2e.stack.database.query<{ days: number; cp_hours: string; sales: string }>(
        `select (extract(day from (date_trunc('month', $2::date) + interval '1 month - 1 day')))::int as days,
           (select sum(value)::text from daily_inputs where store_id = $1 and to_char(entry_date, 'YYYY-MM') = $3 and row_identifier = 'CP' and metric_type = 'hours') as cp_hours,
           (select sum(value)::text from daily_inputs where store_id = $1 and to_char(entry_date, 'YYYY-MM') = $3 and metric_type = 'sales') as sales`,
        [demo.storeA, `${lastMonth}-01`, lastMonth],
      )
    ).rows;
    expect(daily.length - 1).toBe(sums?.days);
    expect(daily.slice(1).every((row) => /^\d{4}-\d{2}-\d{2}$/.test(row[0] ?? ''))).toBe(true);
    const column = (i: number) => daily.slice(1).reduce((sum, row) => sum + Number(row[i] || 0), 0);
    expect(column(1)).toBeCloseTo(Number(sums?.cp_hours), 6);
    expect(column(2) + column(4) + column(6)).toBeCloseTo(Number(sums?.sales), 6);

    const table = parseCsv(await download('Monthly table (CSV)'));
    expect(table[0]?.[0]).toBe('Labour Type');
    const totalSales = table.find((row) => row[0] === 'TOTAL SALES');
    const onScreen = await page.getByRole('table', { name: 'Monthly table with last year' }).getByRole('row', { name: /TOTAL SALES/ }).locator('td').nth(1).textContent();
    expect(money.format(Number(totalSales?.[3]))).toBe(onScreen?.trim());

    const advisors = parseCsv(await download('Advisor figures (CSV)'));
    expect(advisors.slice(1).map((row) => row[0])).toEqual(['Jordan Lee', 'Priya Patel', 'Sam Carter']);
    const [jordan] = (
      await e2e.stack.database.query<{ ros: number; labour: string }>(
        `select t.total_ros as ros, t.labour_sales::text as labour from front_end_team_advisor_totals t
         where t.advisor_id = $1 and to_char(t.entry_date, 'YYYY-MM') = $2`,
        [demo.advisorA, lastMonth],
      )
    ).rows;
    const header = advisors[0] ?? [];
    const jordanRow = advisors[1] ?? [];
    expect(Number(jordanRow[header.indexOf('Total ROs')])).toBe(Number(jordan?.ros));
    expect(Number(jordanRow[header.indexOf('Labour Sales')])).toBe(Number(jordan?.labour));
    await context.setOffline(false);
  });
});
