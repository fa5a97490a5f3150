/**
 * Importing the dealer system's day-end report in Chromium: the sample exports of
 * tests/fixtures/dms chosen on Daily with the network off, the suggested mapping adjusted,
 * the preview read, the values written as ordinary edits (on the device, in the outbox),
 * sent once the network is back and recorded in the change history as imported from the
 * file; the same file again changes nothing. A closed month's values are refused in the
 * preview with the closure's reason, and a month closed elsewhere while the device was
 * offline is refused by the server, as a typed edit would be.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import { offlineFailures, refusedWith } from './support/browser.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { DailyGridModel, showsNothingWaiting, SyncBarModel } from './support/pages.ts';
import { seriousViolations } from './support/axe.ts';

const fixture = (name: string) => new URL(`../fixtures/dms/${name}`, import.meta.url).pathname;

/** The import dialog, as a person works it. */
class ImportDialogModel {
  constructor(private readonly page: Page) {}
  dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Import from the dealer system' });
  }
  async open() {
    await this.page.getByRole('button', { name: 'Import from dealer system' }).click();
    await this.dialog().waitFor();
  }
  async choose(file: string | { name: string; mimeType: string; buffer: Buffer }) {
    await this.dialog().getByLabel('Report file').setInputFiles(file);
  }
  summary() {
    return this.dialog().locator('.import-summary');
  }
  refusedLines() {
    return this.dialog().locator('table.refused tbody tr');
  }
  async rows(caption: string): Promise<string[][]> {
    return this.dialog()
      .locator('table', { has: this.page.locator('caption', { hasText: caption }) })
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())));
  }
  importButton() {
    return this.dialog().getByRole('button', { name: /^(Import [\d,]+ values?|Nothing to import)$/ });
  }
}

describe('importing the dealer system report', () => {
  let e2e: E2E;
  let page: Page;
  let context: BrowserContext;
  let importer: ImportDialogModel;
  const values = async (from: string, to: string) =>
    (
      await e2e.stack.database.query<{ cell: string }>(
        `select entry_date::text || ' ' || row_identifier || ' ' || metric_type || ' ' || value::text as cell from daily_inputs
          where store_id = $1 and entry_date between $2 and $3 and deleted_at is null order by entry_date, row_identifier, metric_type`,
        [demo.storeA, from, to],
      )
    ).rows.map((row) => row.cell);

  beforeAll(async () => {
    e2e = await startE2E();
    // The sample reports are of July 2026, which the demo store has figures for: its first days are emptied (as the
    // database's owner, recorded nowhere) so the preview starts from empty cells.
    await e2e.stack.database.query(`delete from daily_inputs where store_id = $1 and entry_date between '2026-07-01' and '2026-07-09'`, [demo.storeA]);
    ({ page, context } = await e2e.signedInPage('manager@example.com', { width: 1366, height: 900 }));
    importer = new ImportDialogModel(page);
    await new SyncBarModel(page).waitForSynced();
  });
  afterAll(() => e2e?.close());

  it('imports a report offline through the outbox, sends it once online with the file named in the history, and changes nothing the second time', async () => {
    const grid = new DailyGridModel(page);
    await grid.open(e2e.appUrl, '2026-07');
    e2e.expectConsoleErrors(offlineFailures);
    await context.setOffline(true);

    await importer.open();
    await importer.choose(fixture('labour-sales-by-pay-type.csv'));
    // Suggested from the headings (line 5, below the report's title lines): C, W and I known, S and CS left to the store.
    await expect.poll(() => importer.summary().textContent()).toBe('2026-07-01 to 2026-07-03: 18 new values, 0 changed values, 0 values unchanged; 3 lines refused.');
    expect(await importer.dialog().getByText('Headings on line 5.', { exact: false }).count()).toBe(1);
    expect(await importer.rows('Refused lines')).toEqual([
      ['9', 'pay type "S" is not mapped to customer pay, warranty or internal'],
      ['14', 'pay type "CS" is not mapped to customer pay, warranty or internal'],
      ['17', 'a total line ("Total"), not a day'],
    ]);
    // CS is customer pay at this store: its line adds to C's of the same day.
    await importer.dialog().getByLabel('Pay type "CS"').selectOption('CP');
    await expect.poll(() => importer.summary().textContent()).toBe('2026-07-01 to 2026-07-03: 18 new values, 0 changed values, 0 values unchanged; 2 lines refused.');
    await e2e.screenshot(page, 'dealer-import-preview');
    const written = await importer.rows('What the import writes');
    expect(written.find((row) => row[0] === '2026-07-03' && row[1] === 'CP Hours')).toEqual(['2026-07-03', 'CP Hours', 'empty (new)', '47', '13, 14']);
    expect(written.find((row) => row[0] === '2026-07-03' && row[1] === 'CP Sales')).toEqual(['2026-07-03', 'CP Sales', 'empty (new)', '8,695.00', '13, 14']);

    await importer.importButton().click();
    await importer.dialog().getByText(/^Imported 18 values from labour-sales-by-pay-type\.csv\. They are saved on this device/).waitFor();
    await importer.dialog().getByRole('button', { name: 'Close' }).click();
    expect(await grid.cell({ date: '2026-07-03', category: 'CP', metric: 'hours' }).inputValue()).toBe('47');
    expect(await grid.cell({ date: '2026-07-01', category: 'W', metric: 'sales' }).inputValue()).toBe('3094');
    // 18 values and the store's mapping wait in the outbox; the server has none of them yet.
    await expect.poll(() => new SyncBarModel(page).status().textContent()).toContain('19 edits waiting');
    expect(await values('2026-07-01', '2026-07-03')).toEqual([]);

    await context.setOffline(false);
    await expect.poll(() => values('2026-07-01', '2026-07-03'), { timeout: 30_000 }).toEqual([
      '2026-07-01 CP hours 42.50', '2026-07-01 CP sales 7862.50', '2026-07-01 I hours 11.00', '2026-07-01 I sales 1210.00', '2026-07-01 W hours 18.20', '2026-07-01 W sales 3094.00',
      '2026-07-02 CP hours 39.75', '2026-07-02 CP sales 7353.75', '2026-07-02 I hours 9.50', '2026-07-02 I sales 1045.00', '2026-07-02 W hours 20.10', '2026-07-02 W sales 3417.00',
      '2026-07-03 CP hours 47.00', '2026-07-03 CP sales 8695.00', '2026-07-03 I hours 12.25', '2026-07-03 I sales 1347.50', '2026-07-03 W hours 16.40', '2026-07-03 W sales 2788.00',
    ]);
    const { rows: history } = await e2e.stack.database.query<{ source: string | null; n: string }>(
      `select source, count(*)::text as n from change_history where table_name = 'daily_inputs' and row_key ->> 'store_id' = $1
        and (row_key ->> 'entry_date') between '2026-07-01' and '2026-07-03' group by source`,
      [demo.storeA],
    );
    expect(history).toEqual([{ source: 'imported from labour-sales-by-pay-type.csv', n: '18' }]);
    const { rows: settings } = await e2e.stack.database.query<{ mapping: string }>(`select import_mapping as mapping from store_settings where store_id = $1`, [demo.storeA]);
    expect(JSON.parse(settings[0]?.mapping ?? '{}')).toMatchObject({ version: 1, layout: 'pay-type', dateColumn: 'Close Date', payTypes: { CP: ['C', 'CS'], W: ['W'], I: ['I'] } });

    // The cell's history names the file.
    await grid.cell({ date: '2026-07-03', category: 'CP', metric: 'hours' }).focus();
    await page.getByRole('button', { name: 'History of CP Hours 2026-07-03' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Cell history' }).locator('ol.history li').allTextContents(), { timeout: 10_000 }).toEqual([
      expect.stringMatching(/^empty → 47 by .+ on device-[0-9a-f-]{36}, imported from labour-sales-by-pay-type\.csv .+, arrived .+$/),
    ]);

    // The same file again: read with the saved mapping, every value unchanged, nothing to write.
    await expect.poll(() => new SyncBarModel(page).status().textContent(), { timeout: 30_000 }).toSatisfy(showsNothingWaiting);
    await importer.open();
    await importer.choose(fixture('labour-sales-by-pay-type.csv'));
    await expect.poll(() => importer.summary().textContent()).toBe('2026-07-01 to 2026-07-03: 0 new values, 0 changed values, 18 values unchanged; 2 lines refused.');
    expect(await importer.dialog().getByText("Read with the store's saved mapping.", { exact: false }).count()).toBe(1);
    expect(await importer.importButton().textContent()).toBe('Nothing to import');
    expect(await importer.importButton().isDisabled()).toBe(true);
    await importer.dialog().getByRole('button', { name: 'Cancel' }).click();
    // Nothing was queued by the second look at the file.
    const outbox = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const request = indexedDB.open('service-dashboard');
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            const count = request.result.transaction('outbox').objectStore('outbox').count();
            count.onsuccess = () => {
              resolve(count.result);
              request.result.close();
            };
          };
        }),
    );
    expect(outbox).toBe(0);
  });

  it("marks the cells that hold a different value, and reads the European export's decimal commas and dotted dates", async () => {
    const grid = new DailyGridModel(page);
    await grid.open(e2e.appUrl, '2026-07');
    // Typed before the import: the file's 38,50 will replace it.
    await grid.enter({ date: '2026-07-01', category: 'CP', metric: 'hours', value: 30 });
    await importer.open();
    await importer.choose(fixture('arbeitswerte-nach-lohnart.csv'));
    // July 1 to 3 hold the first sample's figures now: each of the European file's 18 differs.
    await expect.poll(() => importer.summary().textContent()).toBe('2026-07-01 to 2026-07-03: 0 new values, 18 changed values, 0 values unchanged; 1 line refused.');
    expect(await importer.dialog().getByText('18 cells hold a different value already (typed or imported before): the import writes over them, marked below.').count()).toBe(1);
    const written = await importer.rows('What the import writes');
    expect(written[0]).toEqual(['2026-07-01', 'CP Hours', '30 (replaced)', '38.5', '6']);
    expect(written.find((row) => row[1] === 'CP Sales' && row[0] === '2026-07-01')).toEqual(['2026-07-01', 'CP Sales', '7,862.50 (replaced)', '6,737.50', '6']);
    // The dialog with its mapping, preview and refusals, as axe-core reads it.
    expect(await seriousViolations(page)).toEqual([]);
    await importer.dialog().getByRole('button', { name: 'Cancel' }).click();
  });

  it('imports a year of days in seconds (measured and printed, not asserted)', async () => {
    // 2033 holds no demo figures: a year in the wide layout, 365 lines, 2,190 values.
    const lines = ['Date,CP Hours,CP Sales,Warranty Hours,Warranty Sales,Internal Hours,Internal Sales'];
    for (let day = 0; day < 365; day += 1) {
      const date = new Date(Date.UTC(2033, 0, 1 + day)).toISOString().slice(0, 10);
      lines.push(`${date},${30 + (day % 20)}.5,${5400 + day}.25,${10 + (day % 7)},${1700 + day},${8 + (day % 5)}.25,${900 + day}.5`);
    }
    const grid = new DailyGridModel(page);
    await grid.open(e2e.appUrl, '2033-01');
    await importer.open();
    await importer.choose({ name: 'year-2033.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) });
    await expect.poll(() => importer.summary().textContent(), { timeout: 30_000 }).toBe('2033-01-01 to 2033-12-31: 2,190 new values, 0 changed values, 0 values unchanged; 0 lines refused.');
    const started = Date.now();
    await importer.importButton().click();
    await importer.dialog().getByText(/^Imported 2,190 values from year-2033\.csv\./).waitFor({ timeout: 60_000 });
    console.log(`A year of days (2,190 values) saved and queued on the device in Chromium in ${((Date.now() - started) / 1000).toFixed(1)} s, from the click to the confirmation`);
    await importer.dialog().getByRole('button', { name: 'Close' }).click();
    expect(await grid.cell({ date: '2033-01-31', category: 'I', metric: 'sales' }).inputValue()).toBe('930.5');
    // Sent before the next test: its refusals queue behind whatever the outbox still holds.
    const sending = Date.now();
    await expect.poll(() => new SyncBarModel(page).status().textContent(), { timeout: 120_000 }).toSatisfy(showsNothingWaiting);
    console.log(`The same 2,190 values sent to the server in ${((Date.now() - sending) / 1000).toFixed(1)} s more`);
    expect(await values('2033-01-01', '2033-12-31')).toHaveLength(2190);
  });

  it("refuses a closed month's values in the preview with the closure's reason, and the server refuses a month closed while the device was offline", async ({ task }) => {
    // July 2026 is closed from another device; this one learns of it with its next sync. (Upserted: a retry finds it closed.)
    const elsewhere = await e2e.stack.signIn('manager@example.com');
    expect((await elsewhere.from('month_closures').upsert({ store_id: demo.storeA, month_start: '2026-07-01', year: 2026, closed: true }, { onConflict: 'store_id,month_start' })).error).toBeNull();
    const grid = new DailyGridModel(page);
    await grid.open(e2e.appUrl, '2026-07');
    await page.getByRole('group', { name: 'Month status' }).getByText(/^Closed by /).waitFor({ timeout: 30_000 });
    await importer.open();
    await importer.choose(fixture('labour-sales-wide.csv'));
    // The saved mapping (the year's file's, of the same headings) reads dates as 2033-01-31: this report writes 07/06/26.
    await importer.dialog().getByLabel('Dates written as').selectOption('MM/DD/YY');
    await expect.poll(() => importer.summary().textContent()).toBe('2026-07-06 to 2026-07-09: 0 new values, 0 changed values, 0 values unchanged, 22 values refused; 5 lines refused.');
    const refused = await importer.rows('Refused lines');
    expect(refused[0]).toEqual(['5', expect.stringMatching(/^2026-07-06: month closed by Morgan Manager on \d{4}-\d{2}-\d{2}$/)]);
    expect(refused.at(-1)).toEqual(['9', 'a total line ("Totals"), not a day']);
    expect(await importer.importButton().isDisabled()).toBe(true);
    await importer.dialog().getByRole('button', { name: 'Cancel' }).click();

    // Offline, a month the device still sees open is closed elsewhere: the import is saved here, and the server refuses it.
    // April 2032, or on a retry a later month that the attempt before did not close.
    const month = `2032-${String(4 + (task.result?.retryCount ?? 0)).padStart(2, '0')}`;
    const [year, monthNumber] = month.split('-');
    const report = readFileSync(fixture('arbeitswerte-nach-lohnart.csv'), 'utf8').replaceAll('.07.2026', `.${monthNumber}.${year}`);
    await grid.open(e2e.appUrl, month);
    e2e.expectConsoleErrors(offlineFailures, refusedWith(400));
    await context.setOffline(true);
    expect((await elsewhere.from('month_closures').insert({ store_id: demo.storeA, month_start: `${month}-01`, year: Number(year), closed: true })).error).toBeNull();
    await importer.open();
    await importer.choose({ name: `${month}.csv`, mimeType: 'text/csv', buffer: Buffer.from(report) });
    await expect.poll(() => importer.summary().textContent()).toBe(`${month}-01 to ${month}-03: 18 new values, 0 changed values, 0 values unchanged; 1 line refused.`);
    await importer.importButton().click();
    await importer.dialog().getByText(`Imported 18 values from ${month}.csv.`, { exact: false }).waitFor();
    await importer.dialog().getByRole('button', { name: 'Close' }).click();
    await context.setOffline(false);
    const issues = page.getByRole('button', { name: /^Sync issues \(\d+\)$/ });
    await issues.waitFor({ timeout: 30_000 });
    await issues.click();
    const first = page.getByRole('region', { name: 'Sync details' }).locator('ul.refusals li').first();
    await expect.poll(() => first.textContent(), { timeout: 10_000 }).toMatch(/This edit was not saved on the server: the month closed by .+ on \d{4}-\d{2}-\d{2}\./);
    expect(await values(`${month}-01`, `${month}-28`)).toEqual([]);
  });
});
