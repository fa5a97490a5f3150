/**
 * Drill 9: bad input at the glass. Text, 1e309, -5, NaN, a 20-digit number and emoji
 * typed or pasted into daily, monthly, yearly and advisor inputs: a clear message (or
 * the spec's coercion), no exception, nothing invalid queued, only valid numbers on the server.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrillStack, Tablet } from '../support/drill-stack.ts';
import { startDrillStack } from '../support/drill-stack.ts';
import { until } from '../../support/poll.ts';
import { SyncBarModel } from '../support/pages.ts';

const badInputs = ['abc', '1e309', '-5', 'NaN', '12345678901234567890', '😀', '12😀'];

/** Fields that hold a profit, which can be a loss. */
const mayBeLoss = new Set(['gross_value', 'gp_net']);

type Queued = { table: string; changes: Record<string, unknown> };

function queued(page: Page): Promise<Queued[]> {
  return page.evaluate(
    () =>
      new Promise<Queued[]>((resolve) => {
        const open = indexedDB.open('service-dashboard');
        open.onsuccess = () => {
          const request = open.result.transaction('outbox').objectStore('outbox').getAll();
          request.onsuccess = () => {
            open.result.close();
            resolve(request.result as Queued[]);
          };
        };
      }),
  );
}

describe('drill: bad input at the glass', () => {
  let drill: DrillStack;
  let tablet: Tablet;
  beforeAll(async () => {
    drill = await startDrillStack();
    tablet = await drill.tablet();
    await new SyncBarModel(tablet.page).waitForSynced();
  });
  afterAll(() => drill?.close());

  async function tryAll(input: Locator) {
    for (const text of badInputs) {
      await input.fill(text);
      await input.press('Tab');
      const invalid = (await input.getAttribute('aria-invalid')) === 'true';
      const shown = await input.inputValue();
      // Either refused with a message at the cell, or coerced to a valid, finite number.
      if (invalid) {
        const message = await tablet.page.locator(`#${await input.getAttribute('aria-describedby')}`).textContent();
        expect(message, `${text}: refused without a reason`).toMatch(/\w+/);
        await input.press('Escape');
      } else {
        expect(shown === '' || Number.isFinite(Number(shown)), `${text} shown as ${shown}`).toBe(true);
      }
    }
  }

  it('refuses or coerces every bad entry on every screen, and only valid numbers reach the server', async () => {
    const { page } = tablet;
    await page.goto(`${drill.appUrl}/daily?month=2031-12`);
    await tryAll(page.getByLabel('CP Hours 2031-12-05'));
    await page.goto(`${drill.appUrl}/monthly`);
    await tryAll(page.getByLabel('Gross CUSTOMER PAY'));
    await page.goto(`${drill.appUrl}/yearly`);
    await tryAll(page.getByLabel(/^Sales January \d{4}$/).first());
    await page.goto(`${drill.appUrl}/front-end-team`);
    await tryAll(page.getByLabel(/^Days Worked /).first());

    for (const entry of await queued(page)) {
      for (const [field, value] of Object.entries(entry.changes)) {
        if (typeof value !== 'number') continue;
        // A month's gross may be a loss (typing -5 there is a valid entry); nothing else may go below zero.
        const floor = mayBeLoss.has(field) ? -1e15 : 0;
        expect(Number.isFinite(value) && value >= floor && Math.abs(value) < 1e15, `${entry.table}.${field} = ${value}`).toBe(true);
      }
    }
    await until(async () => (await queued(page)).length, (n) => n === 0, 30_000, 'the outbox sent');
    const client = await drill.signedInClient('manager@example.com');
    for (const table of ['daily_inputs', 'monthly_labor_gross_inputs', 'yearly_financial_inputs', 'front_end_team_daily_performance']) {
      const { data, error } = await client.from(table).select('*').limit(5000);
      expect(error).toBeNull();
      for (const row of data as Array<Record<string, unknown>>) {
        for (const [field, value] of Object.entries(row)) {
          if (typeof value === 'number') expect(Number.isFinite(value), `${table}.${field}`).toBe(true);
        }
      }
    }
    const { data: daily } = await client.from('daily_inputs').select('value').eq('entry_date', '2031-12-05');
    for (const row of daily ?? []) expect(Number(row.value)).toBeGreaterThanOrEqual(0);
    expect(tablet.errors).toEqual([]);
  });
});
