/**
 * Runs once before the unit and integration files: builds the database templates every
 * suite copies (tests/support/database-templates.ts), so two test processes starting at
 * once do not both build them.
 */
import { prepareTemplates } from './database-templates.ts';

export default async function setup(): Promise<void> {
  await prepareTemplates(process.env.TEST_DATABASE_URL);
}
