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
