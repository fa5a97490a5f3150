/** axe-core run in a page (accessibility.test.ts scans every screen; other tests scan what opens on them). */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

type Violation = { id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> };

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page; answers the serious and critical violations, described. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated by the browser's debugging protocol, not added as an inline <script>: the
  // app's Content-Security-Policy rightly refuses inline scripts.
  await page.evaluate(await axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(options: object): Promise<{ violations: unknown[] }> } }).axe;
    // Every rule runs; only the violations are gathered in full (not every passing node).
    return (await axe.run({ resultTypes: ['violations'] })).violations;
  })) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
