/**
 * `npm run remove-authenticators -- EMAIL`: removes every authenticator app and security
 * key (MFA factors) of one account, for when its person lost their phone or key and no
 * other admin can remove them from the Admin screen (the only admin, say). The person
 * then signs in with the password alone until they set up a new one. Acts on the
 * embedded backend's database (PGlite in LOCAL_SUPABASE_DIR, with the backend stopped; or
 * DATABASE_URL, while it runs).
 */
import { userFactors } from '../supabase/local/auth/factors.ts';
import { removeFactor } from '../supabase/local/auth/mfa.ts';
import { findUser } from '../supabase/local/auth/users.ts';
import { lockDataFolder, lockHolder } from '../supabase/local/data-folder.ts';
import { openDatabase } from '../supabase/local/db/open.ts';
import { backendSettingsFromEnv } from '../supabase/local/settings.ts';

class Refused extends Error {}

async function main() {
  const [email, ...rest] = process.argv.slice(2);
  if (!email || rest.length > 0 || email.startsWith('-')) throw new Refused('Usage: npm run remove-authenticators -- EMAIL');
  const settings = backendSettingsFromEnv();
  let release: (() => Promise<void>) | undefined;
  if (!settings.databaseUrl) {
    const holder = await lockHolder(settings.dataDir);
    if (holder !== null) throw new Refused(`The backend (pid ${holder}) has ${settings.dataDir} open. Stop it (Ctrl-C where \`npm start\` runs), run this, and start it again.`);
    release = await lockDataFolder(settings.dataDir);
  }
  const db = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir });
  try {
    const user = await findUser(db, { email: email.trim() });
    if (!user) throw new Refused(`No account has the e-mail address ${email}.`);
    const factors = await userFactors(db, user.id);
    for (const factor of factors) await removeFactor(db, factor);
    process.stdout.write(
      factors.length === 0
        ? `${user.email} has no authenticator: nothing to remove.\n`
        : `Removed ${factors.length} authenticator(s) of ${user.email}. They sign in with the password alone until they set up a new one (Settings, Authenticator).\n`,
    );
  } finally {
    await db.close();
    await release?.();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Refused ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
