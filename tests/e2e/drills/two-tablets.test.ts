/**
 * Drill 3: two tablets of one store, both offline, edit overlapping days and the same
 * cells; both come back at the same moment. Both screens show the same values soon
 * after, the server holds each cell once, and every value that lost is in a conflict log.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrillStack, Tablet } from '../support/drill-stack.ts';
import { startDrillStack } from '../support/drill-stack.ts';
import type { Cell } from '../support/drill-steps.ts';
import { byCell, cellKey, cellLabel, daysOf, deviceCounts, enter, openMonth, serverCells } from '../support/drill-steps.ts';
import { until } from '../../support/poll.ts';
import { SyncBarModel } from '../support/pages.ts';

const month = '2031-08';

type Conflict = { key: string; field: string; theirs: unknown; ours: unknown };

function conflictsOn(page: Page): Promise<Conflict[]> {
  return page.evaluate(
    () =>
      new Promise<Conflict[]>((resolve, reject) => {
        const open = indexedDB.open('service-dashboard');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('conflicts').objectStore('conflicts').getAll();
          request.onsuccess = () => {
            open.result.close();
            resolve(request.result as Conflict[]);
          };
        };
      }),
  );
}

describe('drill: two tablets of one store, both offline', () => {
  let drill: DrillStack;
  let a: Tablet;
  let b: Tablet;

  beforeAll(async () => {
    drill = await startDrillStack();
    [a, b] = await Promise.all([drill.tablet({ width: 1366, height: 900 }), drill.tablet({ width: 1366, height: 900 })]);
    await Promise.all([a, b].map((t) => new SyncBarModel(t.page).waitForSynced()));
  });
  afterAll(() => drill?.close());

  it('converges both screens and keeps every overwritten value in a conflict log', async () => {
    const days = daysOf(month, 9);
    // A: days 1 to 6; B: days 4 to 9; days 4 to 6 are the same cells on both.
    const fromA: Cell[] = days.slice(0, 6).map((date, i) => ({ date, category: 'CP', metric: 'hours', value: 10 + i }));
    const fromB: Cell[] = days.slice(3, 9).map((date, i) => ({ date, category: 'CP', metric: 'hours', value: 20 + i }));
    for (const t of [a, b]) await openMonth(t.page, drill.appUrl, month);
    await Promise.all([a.context.setOffline(true), b.context.setOffline(true)]);
    for (const cell of fromA) await enter(a.page, cell);
    for (const cell of fromB) await enter(b.page, cell);
    expect((await deviceCounts(a.page)).outbox).toBe(6);
    expect((await deviceCounts(b.page)).outbox).toBe(6);

    await Promise.all([a.context.setOffline(false), b.context.setOffline(false)]);
    const back = Date.now();
    const client = await drill.signedInClient('manager@example.com');
    const shown = async (page: Page) => Promise.all([...fromA, ...fromB].map((cell) => page.getByLabel(cellLabel(cell)).inputValue()));
    const [onA] = await until(
      async () => {
        const server = byCell(await serverCells(client, `${month}-01`, `${month}-31`));
        const fromServer = [...fromA, ...fromB].map((cell) => String(server.get(cellKey(cell)) ?? ''));
        return [await shown(a.page), await shown(b.page), fromServer] as const;
      },
      ([x, y, server]) => JSON.stringify(x) === JSON.stringify(y) && JSON.stringify(x) === JSON.stringify(server),
      5_000,
      'both screens showing what the server holds',
    );
    const convergedMs = Date.now() - back;
    for (const t of [a, b]) expect((await deviceCounts(t.page)).outbox).toBe(0);
    expect(onA?.filter((value) => value !== '')).toHaveLength(12);

    const server = byCell(await serverCells(client, `${month}-01`, `${month}-31`));
    expect(server.size).toBe(9);
    const logged = [...(await conflictsOn(a.page)), ...(await conflictsOn(b.page))];
    for (const [i, ownA] of fromA.slice(3).entries()) {
      const ownB = fromB[i] as Cell;
      const kept = server.get(cellKey(ownA));
      expect([ownA.value, ownB.value]).toContain(kept);
      const lost = kept === ownA.value ? ownB.value : ownA.value;
      const found = logged.filter((c) => c.key.includes(ownA.date) && c.field === 'value' && Number(c.theirs) === lost);
      expect(found, `${ownA.date}: ${lost} overwritten by ${kept}; logs ${JSON.stringify(logged)}`).not.toHaveLength(0);
    }
    // The Sync details name each logged value as its screen does, never by table and store id.
    const [withLog] = (await conflictsOn(a.page)).length > 0 ? [a] : [b];
    await withLog.page.getByRole('button', { name: /^Sync (details|issues)/ }).click();
    const items = withLog.page.getByRole('region', { name: 'Sync details' }).locator('li').filter({ hasText: '(kept)' });
    await expect.poll(() => items.count()).toBeGreaterThan(0);
    for (const text of await items.allTextContents()) {
      expect(text).toMatch(/^(CP|W|I) (Hours|Sales), \w{3} \d{1,2} \w{3} \d{4}: was .+, other device \d+(\.\d+)?, this device \d+(\.\d+)? \(kept\)$/);
      expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    }
    expect([...a.errors, ...b.errors]).toEqual([]);
    console.log(`drill 3: both screens showed the server's 9 cells ${convergedMs} ms after reconnecting; ${logged.length} conflicts logged`);
  });
});
