/**
 * A cell writes what the person typed, no more and no less, and the indicator says only
 * what it has read: two devices of one store in Chromium against the embedded backend.
 * - Focusing a cell and leaving it without typing writes nothing, so it never undoes a
 *   value another device wrote meanwhile.
 * - A value typed and the page closed a moment later is on the device when it is opened
 *   again, and then on the server.
 * - Reloaded with edits waiting, the indicator never says "0 edits waiting" or "Last
 *   synced never" before it has read the device's counts.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { offlineFailures } from './support/browser.ts';
import type { Cell } from './support/drill-steps.ts';
import { cellKey, cellLabel, deviceCounts, enter, openMonth } from './support/drill-steps.ts';
import { until } from '../support/poll.ts';
import { SyncBarModel } from './support/pages.ts';

const month = '2031-09';

/** The device's stored value of a daily cell, straight from IndexedDB (undefined when it has no row). */
function storedValue(page: Page, cell: Pick<Cell, 'date' | 'category' | 'metric'>): Promise<number | null | undefined> {
  return page.evaluate(
    ({ storeId, date, category, metric }) =>
      new Promise<number | null | undefined>((resolve, reject) => {
        const open = indexedDB.open('service-dashboard');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('daily_inputs').objectStore('daily_inputs').get([storeId, date, category, metric]);
          request.onsuccess = () => {
            open.result.close();
            const row = request.result as { value?: number | null } | undefined;
            resolve(row ? (row.value ?? null) : undefined);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    { storeId: demo.storeA, date: cell.date, category: cell.category, metric: cell.metric },
  );
}

describe('cells write only what was typed, and keep it', () => {
  let e2e: E2E;
  let a: { page: Page; context: BrowserContext };
  let b: { page: Page; context: BrowserContext };
  /** The month's cells on the server, "date category metric" => value, straight from the database. */
  const serverCells = async () => {
    const { rows } = await e2e.stack.database.query<{ entry_date: string; row_identifier: string; metric_type: string; value: string }>(
      `select entry_date::text, row_identifier, metric_type, value::text from daily_inputs
       where store_id = $1 and entry_date between $2 and $3`,
      [demo.storeA, `${month}-01`, `${month}-30`],
    );
    return new Map(rows.map((row) => [`${row.entry_date} ${row.row_identifier} ${row.metric_type}`, Number(row.value)]));
  };
  const serverValue = async (cell: Cell) => (await serverCells()).get(cellKey(cell));

  beforeAll(async () => {
    e2e = await startE2E();
    a = await e2e.signedInPage('manager@example.com');
    b = await e2e.signedInPage('manager@example.com');
    for (const device of [a, b]) await new SyncBarModel(device.page).waitForSynced();
  });
  afterAll(() => e2e?.close());

  it("does not undo another device's edit when a cell is focused and left without typing", async () => {
    const cell: Cell = { date: `${month}-03`, category: 'CP', metric: 'hours', value: 100 };
    for (const device of [a, b]) await openMonth(device.page, e2e.appUrl, month);
    await enter(a.page, cell);
    await until(() => serverValue(cell), (value) => value === 100, 15_000, 'the server holding 100');
    await until(() => b.page.getByLabel(cellLabel(cell)).inputValue(), (text) => text === '100', 15_000, 'B showing 100');

    // A clicks into the cell showing 100 and types nothing; meanwhile B changes it to 200.
    await a.page.getByLabel(cellLabel(cell)).click();
    expect(await a.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(cellLabel(cell));
    await enter(b.page, { ...cell, value: 200 });
    await until(() => serverValue(cell), (value) => value === 200, 15_000, 'the server holding 200');
    await until(() => storedValue(a.page, cell), (value) => value === 200, 15_000, "A's device holding 200");

    // The screen re-reads the device's rows a moment after they change.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await a.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(cellLabel(cell));
    // A leaves the cell.
    await a.page.keyboard.press('Tab');
    await until(() => a.page.getByLabel(cellLabel(cell)).inputValue(), (text) => text === '200', 5_000, 'A showing 200');
    // Anything A might have queued has had time to reach the server.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await deviceCounts(a.page)).outbox).toBe(0);
    expect(await serverValue(cell)).toBe(200);
    expect(await a.page.getByLabel(cellLabel(cell)).inputValue()).toBe('200');
    expect(await b.page.getByLabel(cellLabel(cell)).inputValue()).toBe('200');
  });

  it("does not undo another device's survey text when its cell is focused and left without typing", async () => {
    const [{ month: current } = { month: '' }] = (await e2e.stack.database.query<{ month: string }>(`select to_char(current_date, 'YYYY-MM') as month`)).rows;
    const nps = async () =>
      (
        await e2e.stack.database.query<{ nps_score: string | null }>(
          `select nps_score from advisor_survey_data where advisor_id = $1 and to_char(make_date(year, month, 1), 'YYYY-MM') = $2`,
          [demo.advisorA, current],
        )
      ).rows[0]?.nps_score;
    const label = 'NPS Score Jordan Lee';
    for (const device of [a, b]) await device.page.goto(`${e2e.appUrl}/front-end-team?month=${current}`);
    await a.page.getByLabel(label).fill('70%');
    await a.page.getByLabel(label).press('Tab');
    await until(nps, (value) => value === '70%', 15_000, 'the server holding 70%');
    await until(() => b.page.getByLabel(label).inputValue(), (text) => text === '70%', 15_000, 'B showing 70%');

    await a.page.getByLabel(label).click();
    await b.page.getByLabel(label).fill('85%');
    await b.page.getByLabel(label).press('Tab');
    await until(nps, (value) => value === '85%', 15_000, 'the server holding 85%');
    // A's device pulls it (a live notice, then a sync) and its screen re-reads it.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await a.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(label);
    await a.page.keyboard.press('Tab');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await deviceCounts(a.page)).outbox).toBe(0);
    expect(await nps()).toBe('85%');
    expect(await a.page.getByLabel(label).inputValue()).toBe('85%');
  });

  it('keeps a value typed right before the page is closed, on the device and then on the server', async () => {
    const tries: Array<{ cell: Cell; leave: boolean }> = [];
    for (let day = 10; day < 18; day += 1) {
      tries.push({ cell: { date: `${month}-${day}`, category: 'W', metric: 'sales', value: 4000 + day + 0.5 }, leave: day % 2 === 0 });
    }
    for (const { cell, leave } of tries) {
      const page = await a.context.newPage();
      await openMonth(page, e2e.appUrl, month);
      await page.getByLabel(cellLabel(cell)).click();
      await page.keyboard.type(String(cell.value));
      // Closed the moment the last key is typed (or the cell is left), as a person swipes the app away.
      if (leave) await page.keyboard.press('Tab');
      await page.close();
    }
    const page = await a.context.newPage();
    await openMonth(page, e2e.appUrl, month);
    const lost: string[] = [];
    for (const { cell, leave } of tries) {
      const stored = await storedValue(page, cell);
      if (stored !== cell.value) lost.push(`${cellKey(cell)} ${leave ? 'left' : 'not left'}: device holds ${String(stored)}, typed ${cell.value}`);
    }
    expect(lost).toEqual([]);
    for (const { cell } of tries) expect(await page.getByLabel(cellLabel(cell)).inputValue()).toBe(String(cell.value));
    const onServer = await until(
      serverCells,
      (server) => tries.every(({ cell }) => server.get(cellKey(cell)) === cell.value),
      20_000,
      'every typed value on the server',
    );
    expect(tries.map(({ cell }) => onServer.get(cellKey(cell)))).toEqual(tries.map(({ cell }) => cell.value));
    await page.close();
  });

  it('shows no count and no "never" on reload before it has read them', async () => {
    const { page, context } = b;
    await openMonth(page, e2e.appUrl, month);
    // Offline on purpose: the browser logs the requests it cannot make.
    e2e.expectConsoleErrors(offlineFailures);
    await context.setOffline(true);
    for (const day of [20, 21]) await enter(page, { date: `${month}-${day}`, category: 'I', metric: 'hours', value: day });
    await page.getByText('2 edits waiting').waitFor({ timeout: 10_000 });
    // Every text the indicator shows from the first paint after the reload.
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __indicator: string[] }).__indicator = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[aria-label="Sync status"]')?.textContent;
        if (text !== undefined && text !== null && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.reload();
    await new SyncBarModel(page).waitForSynced(15_000);
    await page.getByText('2 edits waiting').waitFor({ timeout: 15_000 });
    const seen = await page.evaluate(() => (window as unknown as { __indicator: string[] }).__indicator);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((text) => /(^|\D)0 edits waiting|never/.test(text))).toEqual([]);
    await context.setOffline(false);
  });
});
