/**
 * Empty, bootstrapped in-memory PGlite databases to build a schema in and read its
 * catalog (db:diff builds two or three per run). Creating PGlite runs initdb, which takes longer than
 * applying every migration; so a process runs it once, keeps a dump of the bootstrapped
 * database, and starts every scratch database from that dump.
 */
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import type { Database } from '../../supabase/local/db/database.ts';
import { bootstrap } from '../../supabase/local/db/migrate.ts';
import { pgliteDatabase } from '../../supabase/local/db/pglite-database.ts';

let bootstrapped: Promise<Blob> | undefined;

function bootstrappedDump(): Promise<Blob> {
  bootstrapped ??= (async () => {
    const pglite = await PGlite.create({ extensions: { pgcrypto } });
    try {
      await bootstrap(pgliteDatabase(pglite));
      return await pglite.dumpDataDir('none');
    } finally {
      await pglite.close();
    }
  })();
  bootstrapped.catch(() => (bootstrapped = undefined));
  return bootstrapped;
}

export async function openScratchDatabase(): Promise<Database> {
  return pgliteDatabase(await PGlite.create({ extensions: { pgcrypto }, loadDataDir: await bootstrappedDump() }));
}
