import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';
import { offlineFailures } from './support/browser.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

describe('the Daily screen', () => {
  let e2e: E2E;
  let context: BrowserContext;
  let page: Page;
  const tile = (name: string) => page.getByRole('article', { name });

  beforeAll(async () => {
    e2e = await startE2E();
    ({ page, context } = await e2e.signedInPage('manager@example.com', { width: 1600, height: 1000 }));
  });
  afterAll(() => e2e?.close());

  it("shows last month's demo figures as the server's rows add up", async () => {
    // Computed here from the server's rows with SQL, not by the app's code.
    const { rows } = await e2e.stack.database.query<{ month: string; hours: string; cp_hours: string; cp_sales: string; dc: number; wd: number }>(
      `with m as (select (date_trunc('month', current_date) - interval '1 month')::date as first),
            r as (select first, (first + interval '1 month - 1 day')::date as last, first - extract(dow from first)::int as grid_start from m)
       select to_char(r.first, 'YYYY-MM') as month,
         (select sum(value)::text from daily_inputs d where d.store_id = $1 and d.metric_type = 'hours' and d.entry_date between r.first and r.last) as hours,
         (select sum(value)::text from daily_inputs d where d.store_id = $1 and d.metric_type = 'hours' and d.row_identifier = 'CP' and d.entry_date between r.first and r.last) as cp_hours,
         (select sum(value)::text from daily_inputs d where d.store_id = $1 and d.metric_type = 'sales' and d.row_identifier = 'CP' and d.entry_date between r.first and r.last) as cp_sales,
         -- The month's own week parts (the demo stores every part of a past month).
         (select coalesce(sum(days_complete), 0)::int from weekly_store_performance w where w.store_id = $1 and w.week_start_date between r.first and r.last) as dc,
         (select coalesce(sum(work_days), 0)::int from weekly_store_performance w where w.store_id = $1 and w.week_start_date between r.first and r.last) as wd
       from r`,
      [demo.storeA],
    );
    const expected = rows[0];
    if (!expected) throw new Error('no expected figures');
    await page.goto(`${e2e.appUrl}/daily?month=${expected.month}`);
    await expect.poll(() => tile('CP ELR').locator('.headline').textContent(), { timeout: 20_000 }).toBe(money.format(Number(expected.cp_sales) / Number(expected.cp_hours)));
    // The first sync brings the weeks after the daily values: wait for them too.
    await expect.poll(() => tile('Hours Per Day').locator('.headline').textContent(), { timeout: 20_000 }).toBe(oneDecimal.format(Number(expected.hours) / expected.dc));
    expect(await tile('Month Complete').textContent()).toContain(`${expected.dc} days`);
    expect(await tile('Month Complete').textContent()).toContain(`${expected.wd} work days`);
    await e2e.screenshot(page, 'daily-dark', { fullPage: true });
  });

  it('names every cell for screen readers and moves between cells with the arrow keys', async () => {
    await page.goto(`${e2e.appUrl}/daily?month=2031-03`);
    const first = page.getByLabel('CP Hours 2031-03-03');
    await first.click();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('CP Sales 2031-03-03');
    // At this width the grid is a list of days (the calendar needs a wider screen): down is the next day.
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('CP Sales 2031-03-04');
    expect(await page.getByLabel('Days Complete Week 2').count()).toBe(1);
    expect(await page.getByLabel('Work Days Week 2').count()).toBe(1);
  });

  it('updates the tiles as soon as a value is entered, and refuses text at the cell', async () => {
    await page.getByLabel('Days Complete Week 2').fill('1');
    await page.getByLabel('Work Days Week 2').fill('6');
    await page.getByLabel('CP Hours 2031-03-03').fill('50');
    await page.getByLabel('CP Sales 2031-03-03').fill('9250');
    await page.getByLabel('W Hours 2031-03-03').click();
    await expect.poll(() => tile('Hours Per Day').locator('.headline').textContent()).toBe('50.0');
    await expect.poll(() => tile('CP ELR').locator('.headline').textContent()).toBe('$185');
    await page.getByLabel('W Hours 2031-03-03').fill('lots');
    await page.getByLabel('W Sales 2031-03-03').click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('W Hours 2031-03-03: "lots" is not a number; enter a number from 0 to 1,000.');
    // What was typed stays to be corrected; Escape gives the stored value back.
    expect(await page.getByLabel('W Hours 2031-03-03').inputValue()).toBe('lots');
    await page.getByLabel('W Hours 2031-03-03').press('Escape');
    expect(await page.getByLabel('W Hours 2031-03-03').inputValue()).toBe('');
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('keeps an entry made offline through an offline reload, and sends it once the network is back', async () => {
    await page.evaluate(async () => navigator.serviceWorker.ready);
    // Offline on purpose: the browser logs the requests it cannot make.
    e2e.expectConsoleErrors(offlineFailures);
    await context.setOffline(true);
    await page.getByLabel('I Hours 2031-03-04').fill('7.5');
    await page.getByLabel('I Sales 2031-03-04').click();
    // Saved on the device (the write on leaving the cell is asynchronous) before the reload.
    const onDevice = () =>
      page.evaluate(async () => {
        const db = await new Promise<IDBDatabase>((resolve) => {
          const request = indexedDB.open('service-dashboard');
          request.onsuccess = () => resolve(request.result);
        });
        return new Promise<unknown>((resolve) => {
          const request = db
            .transaction('daily_inputs')
            .objectStore('daily_inputs')
            .get(['11111111-1111-4111-8111-111111111111', '2031-03-04', 'I', 'hours']);
          request.onsuccess = () => resolve((request.result as { value?: unknown } | undefined)?.value ?? null);
        });
      });
    await expect.poll(onDevice).toBe(7.5);
    await page.reload();
    await expect.poll(() => page.getByLabel('I Hours 2031-03-04').inputValue(), { timeout: 15_000 }).toBe('7.5');
    const onServer = async () =>
      (await e2e.stack.database.query<{ value: string }>(`select value::text from daily_inputs where entry_date = '2031-03-04' and row_identifier = 'I' and metric_type = 'hours'`)).rows;
    expect(await onServer()).toEqual([]);
    await context.setOffline(false);
    await expect.poll(onServer, { timeout: 20_000 }).toEqual([{ value: '7.50' }]);
    await page.evaluate(() => localStorage.setItem('theme', 'light'));
    await page.reload();
    await page.getByLabel('I Hours 2031-03-04').waitFor();
    await e2e.screenshot(page, 'daily-light', { fullPage: true });
  });

  it('on the combined page keeps edits until "Submit Data", then saves them together', async () => {
    await page.goto(`${e2e.appUrl}/daily-weekly?month=2031-06`);
    await page.getByRole('heading', { name: 'Daily and Weekly Performance' }).waitFor();
    const submit = page.getByRole('button', { name: 'Submit Data' });
    await submit.click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'No changes to submit.' }).count()).toBe(1);
    await page.getByLabel('CP Hours 2031-06-02').fill('40');
    await page.getByLabel('CP Sales 2031-06-02').fill('7400');
    await page.getByLabel('Days Complete Week 1').fill('1');
    await page.getByLabel('Work Days Week 1').click();
    const local = () =>
      page.evaluate(async () => {
        const db = await new Promise<IDBDatabase>((resolve) => {
          const request = indexedDB.open('service-dashboard');
          request.onsuccess = () => resolve(request.result);
        });
        return new Promise<number>((resolve) => {
          const request = db.transaction('daily_inputs').objectStore('daily_inputs').count(IDBKeyRange.bound([
            '11111111-1111-4111-8111-111111111111', '2031-06-01'], ['11111111-1111-4111-8111-111111111111', '2031-06-30', '\uffff']));
          request.onsuccess = () => resolve(request.result);
        });
      });
    expect(await local()).toBe(0);
    await submit.click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Data submitted successfully!' }).count()).toBe(1);
    expect(await local()).toBe(2);
    await expect.poll(() => tile('CP ELR').locator('.headline').textContent()).toBe('$185');
  });

  it("keeps the grid's inputs through month switches, writing each month's labels and values into them", async () => {
    const monthKey = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`;
    const now = new Date();
    const firstOf = (back: number) => new Date(now.getFullYear(), now.getMonth() - back, 1);
    // Two past months of demo data whose first days fall on different weekdays (a February of
    // 28 days and its March do not), so the same positions show other dates, some in the
    // month in one and outside it in the other.
    const back = firstOf(2).getDay() === firstOf(1).getDay() ? 3 : 2;
    const [earlier, later] = [monthKey(firstOf(back)), monthKey(firstOf(back - 1))];
    /** The inputs on screen, by label and value, in the grid's order. */
    const inputs = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLInputElement>('.day-grid input')].filter((input) => input.getBoundingClientRect().width > 0).map((input) => [input.getAttribute('aria-label'), input.value]),
      );
    const opened = async (month: string) => {
      await page.goto(`${e2e.appUrl}/daily?month=${month}`);
      await page.getByLabel(`CP Hours ${month}-01`).waitFor();
      await expect.poll(async () => (await inputs()).filter(([, value]) => value !== '').length, { timeout: 20_000 }).toBeGreaterThan(20);
      // The weeks out of sight are drawn after the first ones; the grid is busy until then.
      await expect.poll(() => page.locator('.day-grid[aria-busy="true"]').count(), { timeout: 20_000 }).toBe(0);
      return inputs();
    };
    // Each month as a page opened on it shows it.
    const fresh = { [earlier]: await opened(earlier), [later]: await opened(later) };
    expect(fresh[earlier]).not.toEqual(fresh[later]);
    await opened(earlier);
    const months = page.getByRole('group', { name: 'Daily month' });
    const show = async (button: 'Next >' | '< Prev', month: string, expected = fresh[month]) => {
      await months.getByRole('button', { name: button }).click();
      await expect.poll(inputs).toEqual(expected);
    };
    // The months beside the one on screen are read while the page is idle; once there and
    // back, both are in memory, as after any while on the page.
    await show('Next >', later);
    await show('< Prev', earlier);
    // Every input in the grid, day cells and week parts, marked as an element.
    const marked = await page.evaluate(() => {
      const all = [...document.querySelectorAll<HTMLInputElement>('.day-grid input')];
      for (const input of all) (input as HTMLInputElement & { kept?: boolean }).kept = true;
      return all.length;
    });
    const dayCells = () => page.evaluate(() => document.querySelectorAll('.day-grid .day input').length);
    // Six weeks of seven days of six, whatever the month.
    expect(await dayCells()).toBe(6 * 7 * 6);
    expect(marked).toBeGreaterThan(6 * 7 * 6);
    const mountedSinceMarked = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLInputElement>('.day-grid input')].filter((input) => !(input as HTMLInputElement & { kept?: boolean }).kept).map((input) => input.getAttribute('aria-label')),
      );
    for (const [button, month] of [['Next >', later], ['< Prev', earlier], ['Next >', later]] as const) {
      await show(button, month);
      // The same day inputs, none mounted anew (only a week part's two inputs come with a month of more weeks).
      expect((await mountedSinceMarked()).filter((label) => !/^(Days Complete|Work Days) Week \d$/.test(label ?? ''))).toEqual([]);
      expect(await dayCells()).toBe(6 * 7 * 6);
    }
    // The inputs of days outside the month are out of reach: hidden, disabled, not focusable,
    // and absent from what a screen reader is given.
    const outside = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLInputElement>('.day-grid .day input')]
        .filter((input) => input.getBoundingClientRect().width === 0)
        .map((input) => {
          input.focus();
          return { label: input.getAttribute('aria-label') ?? '', reachable: document.activeElement === input || !input.disabled || input.closest('[hidden]') === null };
        }),
    );
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.filter((input) => input.reachable)).toEqual([]);
    const [firstOutside] = outside;
    if (!firstOutside) throw new Error('no input outside the month');
    expect(await page.getByLabel(firstOutside.label).count()).toBe(1);
    expect(await page.getByRole('textbox', { name: firstOutside.label }).count()).toBe(0);
    // Typed after the switches, a value is saved for the date the input shows now (the same
    // input showed another date in the other month).
    const label = `W Hours ${later}-05`;
    await page.getByLabel(label).fill('0.75');
    await page.getByLabel(`W Sales ${later}-05`).click();
    const stored = (date: string) =>
      page.evaluate(async (key) => {
        const db = await new Promise<IDBDatabase>((resolve) => {
          const request = indexedDB.open('service-dashboard');
          request.onsuccess = () => resolve(request.result);
        });
        return new Promise<unknown>((resolve) => {
          const request = db.transaction('daily_inputs').objectStore('daily_inputs').get(key);
          request.onsuccess = () => resolve((request.result as { value?: unknown } | undefined)?.value ?? null);
        });
      }, [demo.storeA, date, 'W', 'hours']);
    await expect.poll(() => stored(`${later}-05`)).toBe(0.75);
    // The other month shows its own values still, and the value comes back with its month.
    await show('< Prev', earlier);
    const withTyped = fresh[later]?.map((input) => (input[0] === label ? [label, '0.75'] : input));
    expect(withTyped).not.toEqual(fresh[later]);
    await show('Next >', later, withTyped);
  });
});
