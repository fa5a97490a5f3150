/**
 * Once for the whole browser run: builds the app (skipped when dist/ is current), the
 * PGlite template the journeys' backends copy, and a data folder the drills' backend
 * processes copy, so no file waits for migrations and the demo seed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildIfNeeded } from '../../../scripts/build-if-needed.ts';
import { startBackendProcess } from '../../support/backend-process.ts';
import { pgliteTemplate } from '../../support/database-templates.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A backend data folder migrated and seeded today, for startBackendProcess's dataTemplate. */
    backendDataTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await buildIfNeeded(() => process.stdout.write('Building the app for the browser tests...\n'));
  const dataTemplate = await mkdtemp(path.join(tmpdir(), 'e2e-backend-template-'));
  const [, backend] = await Promise.all([pgliteTemplate('seeded'), startBackendProcess({ dataDir: dataTemplate })]);
  // Stopped cleanly, so its files are consistent and its lock released before copies are made.
  await backend.stop();
  project.provide('backendDataTemplate', dataTemplate);
  return () => rm(dataTemplate, { recursive: true, force: true });
}
