import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../support/demo.ts';
import type { E2E } from './support/harness.ts';
import { startE2E } from './support/harness.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

describe('the Yearly Trend screen', () => {
  let e2e: E2E;
  let page: Page;
  beforeAll(async () => {
    e2e = await startE2E();
    ({ page } = await e2e.signedInPage('manager@example.com', { width: 1600, height: 1000 }));
  });
  afterAll(() => e2e?.close());
  const server = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) => (await e2e.stack.database.query<T>(sql, params)).rows;

  it("shows last year's demo months with GP% as the server's rows give it", async () => {
    const { rows } = await e2e.stack.database.query<{ year: number; sales: string; pct: string }>(
      `select year, sales::text, round(gp_net / sales * 100)::text as pct from yearly_financial_inputs
       where store_id = $1 and year = extract(year from current_date)::int - 1 and month = 3`,
      [demo.storeA],
    );
    const march = rows[0];
    if (!march) throw new Error('no seeded month');
    await page.goto(`${e2e.appUrl}/yearly?month=${march.year + 1}-01`);
    const sales = page.getByLabel(`Sales March ${march.year}`);
    await expect.poll(() => sales.inputValue(), { timeout: 20_000 }).toBe(String(Number(march.sales)));
    const row = page.getByRole('table', { name: `Yearly trend ${march.year}` }).getByRole('row', { name: /^March/ });
    expect((await row.locator('td').nth(2).textContent())?.trim()).toBe(`${march.pct}%`);
    // This year's March beside last year's: the sales then and the change since, from the server's rows.
    const [change] = (
      await e2e.stack.database.query<{ pct: string }>(
        `select round((c.sales - p.sales) / p.sales * 100)::int::text as pct from yearly_financial_inputs c
         join yearly_financial_inputs p on p.store_id = c.store_id and p.year = c.year - 1 and p.month = c.month
         where c.store_id = $1 and c.year = $2 and c.month = 3`,
        [demo.storeA, march.year + 1],
      )
    ).rows;
    const thisYear = page.getByRole('table', { name: `Yearly trend ${march.year + 1}` }).getByRole('row', { name: /^March/ });
    const cells = await thisYear.locator('td').allTextContents();
    expect(cells[1]?.trim()).toBe(money.format(Number(march.sales)));
    const pct = Number(change?.pct);
    expect(cells[2]?.trim()).toBe(`${pct > 0 ? '+' : pct < 0 ? '−' : ''}${Math.abs(pct)}%`);
    await e2e.screenshot(page, 'yearly-dark', { fullPage: true });
  });

  it('compares Total and AVG with the same months last year, labelled so, and shows "-" for a month without figures', async () => {
    const { page: laptop, context } = await e2e.signedInPage('manager@example.com', { width: 1366, height: 768 });
    try {
      // Worked out from the server's rows: this year's months with sales up to this month, against the
      // same months last year; this month, part-way, against last year's month at the share of its work
      // days done (work days: Monday to Saturday less the store's closed days; days done: the weeks' entries).
      const [lfl] = await server<{ year: number; month: number; current: string; previous: string; complete: number; work: number; first: number; last: number }>(
        `with m as (select date_trunc('month', current_date)::date as first),
         d as (select (select sum(days_complete)::int from weekly_store_performance w, m where w.store_id = $1 and w.week_start_date >= m.first and w.week_start_date < m.first + interval '1 month') as complete,
                      (select count(*)::int from m, generate_series(m.first, (m.first + interval '1 month - 1 day')::date, interval '1 day') g
                        where extract(isodow from g) <> 7 and g::date not in (select calendar_date from store_calendar_days where store_id = $1 and is_work_day = false)) as work)
         select extract(year from current_date)::int as year, extract(month from current_date)::int as month,
                sum(c.sales)::text as current,
                sum(case when c.month = extract(month from current_date) and d.complete > 0 and d.complete < d.work then p.sales * d.complete / d.work else p.sales end)::text as previous,
                max(d.complete) as complete, max(d.work) as work, min(c.month) as first, max(c.month) as last
           from yearly_financial_inputs c join yearly_financial_inputs p on p.store_id = c.store_id and p.year = c.year - 1 and p.month = c.month, d
          where c.store_id = $1 and c.year = extract(year from current_date) and c.month <= extract(month from current_date) and c.sales is not null and p.sales is not null`,
        [demo.storeA],
      );
      if (!lfl) throw new Error('no seeded year');
      const short = (month: number) => new Date(2000, month - 1, 1).toLocaleString('en-US', { month: 'short' });
      const label = lfl.first === lfl.last ? short(lfl.first) : `${short(lfl.first)}-${short(lfl.last)}`;
      await laptop.goto(`${e2e.appUrl}/yearly?month=${lfl.year}-${String(lfl.month).padStart(2, '0')}`);
      const table = laptop.getByRole('table', { name: `Yearly trend ${lfl.year}` });
      const total = table.getByRole('row', { name: /^Total/ });
      await expect.poll(async () => (await total.locator('td').allTextContents())[1] ?? '', { timeout: 20_000 }).toContain(label);
      const cells = await total.locator('td').allTextContents();
      const previous = Number(lfl.previous);
      expect(cells[1]?.trim()).toBe(`${money.format(previous)} ${label}`);
      const pct = Math.round(((Number(lfl.current) - previous) / previous) * 100);
      expect(cells[2]?.trim()).toBe(`${pct > 0 ? '+' : pct < 0 ? '−' : ''}${Math.abs(pct)}%`);
      expect((await table.getByRole('row', { name: /^AVG/ }).locator('td').allTextContents())[1]).toContain(label);
      // December of this year has no figures yet (when this runs before December): "-", not 0%.
      if (lfl.month < 12) {
        const december = await table.getByRole('row', { name: /^December/ }).locator('td').allTextContents();
        expect(december.filter((text) => text.trim() === '0%')).toEqual([]);
        expect(december[4]?.trim()).toBe('-'); // GP%
      }
      await e2e.screenshot(laptop, 'figures-yearly-like-for-like', { fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('at 1366 x 768 shows every column of both years, NET and ROS included, with inputs showing their values whole', async () => {
    const { page: laptop, context } = await e2e.signedInPage('manager@example.com', { width: 1366, height: 768 });
    try {
      const [now] = await server<{ year: number; month: string }>(`select extract(year from current_date)::int as year, to_char(current_date, 'YYYY-MM') as month`);
      if (!now) throw new Error('no date');
      await laptop.goto(`${e2e.appUrl}/yearly?month=${now.month}`);
      // Measured with the demo's figures in place: whole values make the widest columns.
      await expect.poll(() => laptop.getByLabel(`Sales January ${now.year - 1}`).inputValue(), { timeout: 20_000 }).not.toBe('');
      await e2e.screenshot(laptop, 'figures-yearly-1366', { fullPage: true });
      // Every column inside the viewport: NET and ROS of both years, and no sideways scroll.
      for (const year of [now.year, now.year - 1]) {
        const heads = laptop.getByRole('table', { name: `Yearly trend ${year}` }).locator('thead th');
        for (const name of ['NET', 'ROS']) {
          const box = await heads.filter({ hasText: new RegExp(`^${name}$`) }).boundingBox();
          expect(box, `${name} ${year}`).not.toBeNull();
          expect(box!.x + box!.width, `${name} ${year} right edge`).toBeLessThanOrEqual(1366);
        }
      }
      expect(await laptop.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
      // Nor hidden inside a scroller of its own: each table fits the width it is given.
      const overflow = await laptop.evaluate(() =>
        [...document.querySelectorAll('.yearly-table')].map((table) => {
          const box = table.parentElement as HTMLElement;
          return { table: table.getAttribute('aria-label'), width: table.scrollWidth, room: box.clientWidth };
        }),
      );
      for (const { table, width, room } of overflow) expect(width, `${table}: ${width} px in ${room} px`).toBeLessThanOrEqual(room);
      // Inputs still show their values in full.
      const clipped = await laptop.evaluate(() => [...document.querySelectorAll<HTMLInputElement>('.yearly-table input')].filter((input) => input.scrollWidth > input.clientWidth).map((input) => input.getAttribute('aria-label')));
      expect(clipped).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows "-" for the Total and AVG of a year with no figures at all, never $0', async () => {
    await page.goto(`${e2e.appUrl}/yearly?month=2035-06`);
    const table = page.getByRole('table', { name: 'Yearly trend 2035' });
    await table.getByRole('row', { name: /^Total/ }).waitFor();
    for (const name of [/^AVG/, /^Total/]) {
      const cells = await table.getByRole('row', { name }).locator('td').allTextContents();
      expect(cells[0]?.trim()).toBe('-');
      expect(cells.filter((text) => /\$0(\.00)?$|^0\.0$/.test(text.trim()))).toEqual([]);
    }
  });

  it('auto-saves a changed month with the spec’s message, and saves zero as no value', async () => {
    await page.goto(`${e2e.appUrl}/yearly?month=2031-01`);
    await page.getByLabel('Sales February 2031').fill('350000');
    await page.getByLabel('GP Net February 2031').click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'auto-saved' }).first().textContent()).toBe('February 2031 auto-saved successfully!');
    await expect.poll(() => page.getByText('February 2031 auto-saved successfully!').count(), { timeout: 5000 }).toBe(0);
    await page.getByLabel('GP Net February 2031').fill('0');
    await page.getByLabel('Hours February 2031').click();
    const server = async () =>
      (await e2e.stack.database.query(`select sales::text, gp_net from yearly_financial_inputs where year = 2031 and month = 2`)).rows;
    await expect.poll(server, { timeout: 20_000 }).toEqual([{ sales: '350000.00', gp_net: null }]);
  });
});
