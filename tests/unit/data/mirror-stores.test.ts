import { describe, expect, it } from 'vitest';
import { latestStores, mirrorStores } from '../../../src/data/app-database.ts';
import { syncedTableNames } from '../../../src/data/synced-tables.ts';

// The device database's versions are written out as they shipped; the latest of them must
// still key every mirror as src/data/synced-tables.ts says (which the compiler holds to the
// database's generated types), so a table or index added there needs a new version.
describe("the device database's latest schema", () => {
  it('keys every synced table by its natural key, with the indexes the registry lists', () => {
    const mirrors = Object.fromEntries(Object.entries(latestStores).filter(([name]) => (syncedTableNames as string[]).includes(name)));
    expect(mirrors).toEqual(mirrorStores(syncedTableNames));
  });
});
