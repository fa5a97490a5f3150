/**
 * Once per project of the browser run: builds the app (skipped when dist/ is current),
 * then for the journeys the template their in-process backends copy (PostgreSQL's when
 * the run has a server, else PGlite's), for the drills a data folder their backend
 * processes copy, so no file waits for migrations and the demo seed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildIfNeeded } from '../../../scripts/build-if-needed.ts';
import { startBackendProcess } from '../../support/backend-process.ts';
import { prepareSeededTemplate, serverEngine } from '../../support/test-databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A backend data folder migrated and seeded today, for startBackendProcess's dataTemplate. */
    backendDataTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await buildIfNeeded(() => process.stdout.write('Building the app for the browser tests...\n'));
  if (project.name !== 'drills') {
    await prepareSeededTemplate(serverEngine);
    return async () => {};
  }
  const dataTemplate = await mkdtemp(path.join(tmpdir(), 'e2e-backend-template-'));
  const backend = await startBackendProcess({ dataDir: dataTemplate });
  // Stopped cleanly, so its files are consistent and its lock released before copies are made.
  await backend.stop();
  project.provide('backendDataTemplate', dataTemplate);
  return () => rm(dataTemplate, { recursive: true, force: true });
}
