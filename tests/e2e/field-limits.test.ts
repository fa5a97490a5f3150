/**
 * Values the server would refuse, pasted where people type: the field is marked invalid,
 * its reason is announced, what was typed stays to be corrected, and nothing is queued
 * (the sync indicator's count, read while offline so a queued edit could not leave
 * unseen) or reaches the server. An edit the server does refuse (queued by an app from
 * before the limits) is listed in the sync panel with the field and its range.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { offlineFailures, refusedWith } from './support/browser.ts';
import { showsNothingWaiting } from './support/pages.ts';

describe('field limits in the browser', () => {
  let e2e: E2E;
  let context: BrowserContext;
  let page: Page;
  const server = async (sql: string, params: unknown[] = []) => (await e2e.stack.database.query(sql, params)).rows;
  const waiting = () => page.getByRole('status', { name: 'Sync status' }).textContent();
  /** Entries in the device's outbox, read from IndexedDB itself. */
  const outboxCount = () =>
    page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('service-dashboard');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const count = await new Promise<number>((resolve) => {
        const request = db.transaction('outbox').objectStore('outbox').count();
        request.onsuccess = () => resolve(request.result);
      });
      db.close();
      return count;
    });

  /** Pastes through the real clipboard, as a person would, then leaves the field. */
  async function paste(field: Locator, text: string) {
    await page.evaluate((value) => navigator.clipboard.writeText(value), text);
    await field.click();
    await field.press('Control+A');
    await field.press('Control+V');
    await field.press('Tab');
  }

  /** The field's state as assistive technology gets it: invalid or not, and the live message it points to. */
  async function announced(field: Locator) {
    return field.evaluate((input) => {
      const id = input.getAttribute('aria-describedby');
      const message = id ? document.getElementById(id) : null;
      return {
        invalid: input.getAttribute('aria-invalid'),
        message: message?.textContent ?? null,
        live: message?.getAttribute('role') ?? null,
        typed: (input as HTMLInputElement).value,
      };
    });
  }

  beforeAll(async () => {
    e2e = await startE2E();
    // Two tests type offline.
    e2e.expectConsoleErrors(offlineFailures);
    ({ page, context } = await e2e.signedInPage('manager@example.com', { width: 1600, height: 1000 }));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.appUrl });
  });
  afterAll(() => e2e?.close());
  // A test that fails while offline must not leave the next one offline.
  afterEach(() => context.setOffline(false));

  it('refuses a bad daily cell at the cell: marked, announced, kept for correcting, never queued', async () => {
    await page.goto(`${e2e.appUrl}/daily?month=2031-08`);
    const cell = page.getByLabel('CP Hours 2031-08-05');
    await cell.waitFor();
    await expect.poll(waiting, { timeout: 20_000 }).toSatisfy(showsNothingWaiting);
    await context.setOffline(true);

    const range = 'enter a number from 0 to 1,000.';
    const pasted: Array<[string, string]> = [
      ['1e309', `CP Hours 2031-08-05: "1e309" is not a number; ${range}`],
      ['-5', `CP Hours 2031-08-05: ${range}`],
      ['12345678901234567890', `CP Hours 2031-08-05: ${range}`],
      ['NaN', `CP Hours 2031-08-05: "NaN" is not a number; ${range}`],
      ['1,5', `CP Hours 2031-08-05: "1,5" is not a number; ${range}`],
      ['7.125', 'CP Hours 2031-08-05: enter a number from 0 to 1,000 with at most 2 decimals.'],
    ];
    for (const [text, message] of pasted) {
      await paste(cell, text);
      await expect.poll(() => announced(cell)).toEqual({ invalid: 'true', message, live: 'alert', typed: text });
    }
    const days = page.getByLabel('Days Complete Week 2');
    await paste(days, '8');
    await expect.poll(() => announced(days)).toEqual({ invalid: 'true', message: 'Days Complete Week 2: enter a whole number from 0 to 7.', live: 'alert', typed: '8' });
    await e2e.screenshot(page, 'field-limits-daily-cell');

    // Nothing queued: the indicator and the device's outbox agree.
    expect(await waiting()).toSatisfy(showsNothingWaiting);
    expect(await outboxCount()).toBe(0);

    // Escape gives the stored value back; a good value is then queued (the indicator does count).
    await cell.click();
    await cell.press('Escape');
    expect(await announced(cell)).toEqual({ invalid: null, message: null, live: null, typed: '' });
    await paste(cell, '7.5');
    await expect.poll(waiting).toContain('1 edit waiting');
    await context.setOffline(false);
    await expect
      .poll(() => server(`select row_identifier, metric_type, value::text from daily_inputs where store_id = $1 and entry_date between '2031-08-01' and '2031-08-31'`, [demo.storeA]), { timeout: 20_000 })
      .toEqual([{ row_identifier: 'CP', metric_type: 'hours', value: '7.50' }]);
    // Confirmed on the device too (the server's answer processed), before the next test goes offline.
    await expect.poll(waiting, { timeout: 20_000 }).toSatisfy(showsNothingWaiting);
    expect(await server(`select count(*)::int as n from weekly_store_performance where store_id = $1 and week_start_date = '2031-08-03'`, [demo.storeA])).toEqual([{ n: 0 }]);
  });

  it("shows a refused entry's message whole where it floats past its week, over the next week", async () => {
    // A week's own inputs sit at its bottom edge, so their messages float over the next week. A
    // week out of sight is drawn only when near the screen, which clips what overflows it
    // (entry.css): a week holding a message must draw as usual, also once focus has left it.
    await page.goto(`${e2e.appUrl}/daily?month=2032-02`);
    const field = page.getByLabel('Work Days Week 1');
    await field.waitFor();
    await paste(field, '9');
    await expect.poll(() => announced(field)).toEqual({ invalid: 'true', message: 'Work Days Week 1: enter a whole number from 0 to 7.', live: 'alert', typed: '9' });
    expect(await page.evaluate(() => document.activeElement?.closest('section.grid-week')?.getAttribute('aria-label'))).not.toBe('Week 1');
    const message = page.getByRole('alert').filter({ hasText: 'Work Days Week 1:' });
    await message.scrollIntoViewIfNeeded();
    const seen = await message.evaluate((box) => {
      const rect = box.getBoundingClientRect();
      const week = box.closest('section.grid-week')?.getBoundingClientRect();
      const corners = [
        [rect.left + 2, rect.top + 2],
        [rect.right - 2, rect.top + 2],
        [rect.left + 2, rect.bottom - 2],
        [rect.right - 2, rect.bottom - 2],
      ] as const;
      const hidden = corners.filter(([x, y]) => {
        const hit = document.elementFromPoint(x, y);
        return !hit || !box.contains(hit);
      });
      return { pastItsWeek: week !== undefined && rect.bottom > week.bottom, hiddenCorners: hidden.length };
    });
    expect(seen).toEqual({ pastItsWeek: true, hiddenCorners: 0 });
    await e2e.screenshot(page, 'field-limits-message-past-week');
    // Put right, so later tests start from a clean grid.
    await field.click();
    await field.press('Escape');
    expect(await announced(field)).toMatchObject({ invalid: null, message: null });
  });

  it('keeps a refused entry with its own date: a month switch shows none of it, going back shows it again', async () => {
    await page.goto(`${e2e.appUrl}/daily?month=2031-09`);
    const cell = page.getByLabel('CP Hours 2031-09-05');
    await cell.waitFor();
    await paste(cell, '-5');
    const refused = { invalid: 'true', message: 'CP Hours 2031-09-05: enter a number from 0 to 1,000.', live: 'alert', typed: '-5' };
    await expect.poll(() => announced(cell)).toEqual(refused);

    // The grid's inputs are reused by position: the next month's cells carry nothing of it.
    await page.getByRole('group', { name: 'Daily month' }).getByRole('button', { name: 'Next >' }).click();
    await page.getByLabel('CP Hours 2031-10-05').waitFor();
    expect(await page.locator('[aria-invalid="true"]').count()).toBe(0);
    expect(await page.getByRole('alert').filter({ hasText: 'CP Hours' }).count()).toBe(0);
    expect(await page.evaluate(() => [...document.querySelectorAll('input')].filter((input) => input.value === '-5').length)).toBe(0);

    await page.getByRole('group', { name: 'Daily month' }).getByRole('button', { name: '< Prev' }).click();
    await expect.poll(() => announced(page.getByLabel('CP Hours 2031-09-05'))).toEqual(refused);
    expect(await outboxCount()).toBe(0);
  });

  it('refuses a bad settings field the same way, and the form saves nothing', async () => {
    await page.goto(`${e2e.appUrl}/settings`);
    await page.getByRole('tab', { name: 'Service Overview Settings' }).click();
    const rate = page.getByLabel('Labour Rate');
    await expect.poll(() => rate.inputValue(), { timeout: 20_000 }).toBe('189.95');
    await context.setOffline(true);

    await paste(rate, '1e309');
    await expect.poll(() => announced(rate)).toEqual({
      invalid: 'true',
      message: 'Labour Rate: "1e309" is not a number; enter a number from 0 to 1,000.',
      live: 'alert',
      typed: '1e309',
    });
    await paste(page.getByLabel('Stalls'), '-3');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Nothing was saved' }).textContent()).toBe('Nothing was saved: 2 fields need correcting.');
    expect(await announced(page.getByLabel('Stalls'))).toMatchObject({ invalid: 'true', message: 'Stalls: enter a whole number from 0 to 1,000.' });
    // Focus goes to the first field to correct.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(await rate.getAttribute('id'));
    await e2e.screenshot(page, 'field-limits-settings');

    // The bar shows no count until the device's has been read (the sync runtime starts within a second of a load).
    await expect.poll(waiting, { timeout: 20_000 }).toSatisfy(showsNothingWaiting);
    expect(await outboxCount()).toBe(0);
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Sync now' }).click();
    expect(await server('select labour_rate::text as rate, stalls from store_settings where store_id = $1', [demo.storeA])).toEqual([{ rate: '189.95', stalls: 24 }]);
  });

  it('lists an edit the server refused with the field and the range it takes, keeping the server’s words', async () => {
    // The server refuses it: a 400 the browser logs.
    e2e.expectConsoleErrors(refusedWith(400));
    // Queued by an app from before the limits (a device that was offline across the update).
    await page.evaluate(async (userId) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('service-dashboard');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const keyValues = { store_id: '11111111-1111-4111-8111-111111111111', year: 2031, month: 4, metric_key: 'grossPerEmployee' };
      const tx = db.transaction('outbox', 'readwrite');
      tx.objectStore('outbox').add({
        table: 'monthly_targets',
        key: JSON.stringify(Object.values(keyValues)),
        keyValues,
        changes: { target_value: 1e15 },
        base: { target_value: null },
        userId,
        rev: 1,
        createdAt: Date.now(),
        updatedAt: Date.now(),
      });
      await new Promise((resolve) => (tx.oncomplete = resolve));
      db.close();
    }, demo.managerId);
    await page.getByRole('button', { name: 'Sync now' }).click();
    const issues = page.getByRole('button', { name: /^Sync issues \(\d+\)$/ });
    await issues.waitFor({ timeout: 20_000 });
    await issues.click();
    const panel = page.getByRole('region', { name: 'Sync details' });
    await expect
      .poll(() => panel.locator('.refusals li p').first().textContent())
      .toBe('Gross Per Employee target April 2031: enter a number from 0 to 10,000,000 (sent: 1,000,000,000,000,000).');
    await panel.getByText("Server's answer").first().click();
    expect(await panel.textContent()).toContain('numeric field overflow');
    expect(await server(`select count(*)::int as n from monthly_targets where store_id = $1 and year = 2031 and month = 4`, [demo.storeA])).toEqual([{ n: 0 }]);
    await e2e.screenshot(page, 'sync-panel-refused');
  });
});
