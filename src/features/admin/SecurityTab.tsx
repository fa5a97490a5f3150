import { useEffect, useState } from 'react';
import type { FormResult } from '../../ui/NumberFieldsForm.tsx';
import { useAdminApi } from '../session/session-context.tsx';

/**
 * The group's security settings: whether every administrator must use an authenticator
 * app. On, an admin without one is refused every admin action (by the server) until they
 * set one up. Changing it needs the admin's own code (aal2). docs/security.md.
 */
export function SecurityTab({ online, onResult }: { online: boolean; onResult(result: FormResult): void }) {
  const api = useAdminApi();
  const [required, setRequired] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!online) return;
    let current = true;
    void api.securitySettings().then((result) => {
      if (!current) return;
      if (result.ok) setRequired(result.data.admins_need_mfa);
      else onResult({ text: `Failed to load the security settings: ${result.message}`, error: true });
    });
    return () => {
      current = false;
    };
  }, [api, online, onResult]);

  async function change(next: boolean) {
    setBusy(true);
    const result = await api.setAdminsNeedMfa(next);
    setBusy(false);
    if (!result.ok) return onResult({ text: `Failed to change the security settings: ${result.message}`, error: true });
    setRequired(result.data.admins_need_mfa);
    onResult({ text: next ? 'Administrators must now use an authenticator app.' : 'Administrators may now sign in with a password alone.', error: false });
  }

  return (
    <div className="admin-tab">
      <h2>Sign-in security</h2>
      <p>
        An administrator can create users, move them between stores, reopen closed months and read every store. Whoever has an authenticator app
        must give its code to do any of that; with this setting on, an administrator without one must set one up first (Settings, Authenticator).
      </p>
      {required === null ? (
        online ? <p>Loading...</p> : null
      ) : (
        <label className="checkbox">
          <input type="checkbox" checked={required} disabled={!online || busy} onChange={(e) => void change(e.target.checked)} />
          Administrators must use an authenticator app
        </label>
      )}
    </div>
  );
}
