/**
 * Drill 5: the person is removed while their tablet is offline with edits waiting. On
 * reconnecting the tablet asks to sign in again, keeps the edits and offers them for
 * export, and sends none of them when someone else signs in on it.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { DrillStack, Tablet } from '../support/drill-stack.ts';
import { startDrillStack } from '../support/drill-stack.ts';
import type { Cell } from '../support/drill-steps.ts';
import { daysOf, deviceCounts, enter, openMonth, untilPast } from '../support/drill-steps.ts';
import { until } from '../../support/poll.ts';
import { LoginPageModel, ShellModel, SyncBarModel } from '../support/pages.ts';

const month = '2031-10';
/** Short, so the removed person's last token has expired within seconds. */
const tokenSeconds = 5;

describe('drill: revoked while offline', () => {
  let drill: DrillStack;
  let tablet: Tablet;

  beforeAll(async () => {
    drill = await startDrillStack({ env: { LOCAL_SUPABASE_JWT_EXPIRY: String(tokenSeconds) } });
    // The auth library logs the refused refresh of the removed person's session: that is this drill's premise.
    drill.expectConsoleErrors(/Invalid Refresh Token/);
    tablet = await drill.tablet();
    await new SyncBarModel(tablet.page).waitForSynced();
  });
  afterAll(() => drill?.close());

  it('asks to sign in again, keeps and exports the edits, and never sends them as someone else', async () => {
    const { page, context } = tablet;
    await openMonth(page, drill.appUrl, month);
    await context.setOffline(true);
    const cells: Cell[] = daysOf(month, 5).map((date, i) => ({ date, category: 'CP', metric: 'sales', value: 1000 + i }));
    for (const cell of cells) await enter(page, cell);
    expect((await deviceCounts(page)).outbox).toBe(5);

    const admin = drill.backend.client(drill.backend.serviceRoleKey);
    // The device's last token was issued before this moment, while it was online.
    const lastTokenBefore = Date.now();
    const { error } = await admin.auth.admin.deleteUser(demo.managerId);
    expect(error).toBeNull();
    // A removed person's access token stays valid until it expires; wait that out offline.
    await untilPast(lastTokenBefore + (tokenSeconds + 1) * 1000);
    await context.setOffline(false);

    // Either the screen says the session ended, or (if the auth library dropped the dead
    // session first) the login page says edits are waiting. Both keep the edits.
    const ended = page.getByRole('alert', { name: 'Session ended' });
    const waiting = page.getByRole('alert', { name: 'Edits waiting on this device' });
    await until(async () => (await ended.count()) + (await waiting.count()), (n) => n > 0, 30_000, 'a request to sign in again');
    const afterReconnect = await deviceCounts(page);
    expect(afterReconnect.outbox + afterReconnect.deadLetters).toBe(5);

    const download = page.waitForEvent('download');
    await ((await ended.count()) ? ended : waiting).getByRole('button', { name: 'Export waiting edits' }).click();
    const exported = JSON.parse(await readFile((await (await download).path()) as string, 'utf8')) as {
      pending: Array<{ changes: { value?: number } }>;
      refused: Array<{ changes: { value?: number }; code: string; message: string }>;
    };
    const kept = [...exported.pending, ...exported.refused].map((entry) => entry.changes.value).sort();
    expect(kept).toEqual(cells.map((cell) => cell.value));

    if (await ended.count()) await ended.getByRole('button', { name: 'Sign in again' }).click();
    await page.getByRole('button', { name: 'Login' }).waitFor();
    expect(await waiting.textContent()).toContain('5 edits typed on this device are not on the server yet');

    // Someone else signs in on this tablet: the edits are not theirs to send.
    await new LoginPageModel(page).signIn('admin@example.com');
    await new ShellModel(page).waitForSignedIn();
    await new SyncBarModel(page).waitForSynced();
    // A second whole cycle as this person (the network returning starts one), finished
    // when its pull has answered: the waiting edits had their chance to be sent.
    let cutOff = false;
    const pulled = page.waitForResponse((response) => cutOff && /\/rest\/v1\/rpc\/pull_/.test(response.url()), { timeout: 30_000 });
    await context.setOffline(true);
    // No reply arrives while offline: the next pull to answer is the new cycle's.
    cutOff = true;
    await context.setOffline(false);
    await pulled;
    const counts = await deviceCounts(page);
    expect(counts.outbox + counts.deadLetters).toBe(5);
    const { data } = await admin.from('daily_inputs').select('entry_date').gte('entry_date', `${month}-01`).lte('entry_date', `${month}-31`);
    expect(data).toEqual([]);
    // The auth library logs the refused refresh of the removed person's session: that is this drill's premise.
    expect(tablet.errors.filter((e) => !/Invalid Refresh Token/.test(e))).toEqual([]);
  });
});
