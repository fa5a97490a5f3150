/**
 * Screenshots are for a person reviewing the screens, not for the checks: each costs
 * Chromium a full render and a PNG encoding (a full page of the One Page is millions of
 * pixels), so a run writes them only when asked (E2E_SCREENSHOTS=1) or when a check
 * failed and the picture explains the failure.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { projectRoot } from '../../../scripts/build-if-needed.ts';

export const screenshotDir = path.join(projectRoot, 'test-results', 'screenshots');

const wanted = () => ['1', 'true', 'yes'].includes((process.env.E2E_SCREENSHOTS ?? '').toLowerCase());

export type ScreenshotOptions = { fullPage?: boolean; /** written whatever E2E_SCREENSHOTS says: the picture of a failure */ always?: boolean };

export async function saveScreenshot(target: Page | Locator, name: string, options: ScreenshotOptions = {}): Promise<void> {
  if (!options.always && !wanted()) return;
  await mkdir(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await ('goto' in target ? target.screenshot({ path: file, fullPage: options.fullPage }) : target.screenshot({ path: file }));
}
