import { buildIfNeeded } from '../../../scripts/build-if-needed.ts';

/** Builds the app once for the whole browser run (skipped when dist/ is current). */
export default async function setup(): Promise<void> {
  await buildIfNeeded(() => process.stdout.write('Building the app for the browser tests...\n'));
}
