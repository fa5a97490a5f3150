/**
 * Builds the database templates the test runs copy (tests/support/database-templates.ts),
 * before any run starts: CI starts the unit and integration run and the browser run side
 * by side, and both would otherwise build the same templates at the same moment.
 *
 *   tsx tests/support/prepare-templates.ts   (PostgreSQL too when TEST_DATABASE_URL is set)
 */
import { prepareTemplates } from './database-templates.ts';

await prepareTemplates(process.env.TEST_DATABASE_URL);
console.log(`Test database templates ready${process.env.TEST_DATABASE_URL ? ' (PGlite and PostgreSQL)' : ' (PGlite)'}.`);
