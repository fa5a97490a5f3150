/** Page models: what a person sees and does, by role and accessible name. */
import type { Page } from 'playwright-core';
import { demo } from '../../support/demo.ts';

export class LoginPageModel {
  constructor(private readonly page: Page) {}

  async open(appUrl: string, path = '/login') {
    await this.page.goto(`${appUrl}${path}`);
    await this.page.getByRole('button', { name: 'Login' }).waitFor();
  }

  async signIn(email: string, password: string = demo.password) {
    await this.page.getByLabel('E-mail').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Login' }).click();
  }

  error() {
    return this.page.getByRole('alert');
  }
}

export class ShellModel {
  constructor(private readonly page: Page) {}

  navigation() {
    return this.page.getByRole('navigation', { name: 'Main' });
  }
  /** The shell is up (its sidebar exists, folded or not). */
  async waitForSignedIn() {
    await this.page.locator('nav#sidebar').waitFor({ state: 'attached', timeout: 15_000 });
  }
  greeting() {
    return this.page.locator('.greeting');
  }
  monthLabel() {
    return this.page.getByRole('group', { name: 'Month', exact: true }).locator('span');
  }
  async moveMonth(direction: 'Prev' | 'Next') {
    await this.page.getByRole('group', { name: 'Month', exact: true }).getByRole('button', { name: direction }).click();
  }
  heading() {
    return this.page.getByRole('heading', { level: 1 });
  }
  async openMenuIfFolded() {
    const menu = this.page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
  }
  async go(link: string) {
    await this.openMenuIfFolded();
    await this.navigation().getByRole('link', { name: link, exact: true }).click();
  }
  async logout() {
    await this.openMenuIfFolded();
    await this.page.getByRole('button', { name: 'Logout' }).click();
  }
}

/** The sync bar at the top of every signed-in screen. */
/** True when the indicator says no edit waits ("0 edits waiting", not "10 edits waiting"). */
export const showsNothingWaiting = (text: string) => /(^|\D)0 edits waiting/.test(text);

export class SyncBarModel {
  constructor(private readonly page: Page) {}

  /** The bar's words ("3 edits waiting Last synced 10:42"). */
  status() {
    return this.page.getByRole('status', { name: 'Sync status' });
  }
  /** Until the device has synced at least once (its first sync brings the store's figures). */
  async waitForSynced(timeout = 60_000) {
    await this.page.getByText(/^Last synced \d/).waitFor({ timeout });
  }
  async syncNow() {
    await this.page.getByRole('button', { name: 'Sync now' }).click();
  }
  async openDetails() {
    await this.page.getByRole('button', { name: /^Sync (details|issues)/ }).click();
    return this.page.getByRole('region', { name: 'Sync details' });
  }
}

export type GridCell = { date: string; category: 'CP' | 'W' | 'I'; metric: 'hours' | 'sales' };

/** The daily grid (Daily, and the Daily section of the One Page): a cell per day, category and metric. */
export class DailyGridModel {
  constructor(private readonly page: Page) {}

  /** The cell's label, as a person (and a screen reader) finds it: "CP Hours 2031-03-05". */
  static label(cell: GridCell): string {
    return `${cell.category} ${cell.metric === 'hours' ? 'Hours' : 'Sales'} ${cell.date}`;
  }
  /** Opens /daily at a month ("2031-03") and waits for its first day's cell. */
  async open(appUrl: string, month: string) {
    await this.page.goto(`${appUrl}/daily?month=${month}`);
    await this.page.getByLabel(`CP Hours ${month}-01`).waitFor({ timeout: 30_000 });
  }
  cell(cell: GridCell) {
    return this.page.getByLabel(DailyGridModel.label(cell));
  }
  /** Types a value and leaves the cell. */
  async enter(cell: GridCell & { value: number | string }) {
    const input = this.cell(cell);
    await input.fill(String(cell.value));
    await input.press('Tab');
  }
}
