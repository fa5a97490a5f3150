import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { AdminUser, Store } from '../../server/admin-api.ts';
import type { FormResult } from '../../ui/NumberFieldsForm.tsx';
import { FormMessage } from '../../ui/NumberFieldsForm.tsx';
import { useAccount, useAdminApi, useSyncStatus } from '../session/session-context.tsx';
import { SecurityTab } from './SecurityTab.tsx';
import { StoresTab } from './StoresTab.tsx';
import { UsersTab } from './UsersTab.tsx';

/**
 * Admin: users (default tab), stores and sign-in security. Needs a connection; offline it
 * says so instead of hanging. Refused for want of an authenticator code, it says so and
 * leads an admin without an authenticator to set one up.
 */
export function AdminPage() {
  const api = useAdminApi();
  const account = useAccount();
  const { online } = useSyncStatus();
  const [tab, setTab] = useState<'users' | 'stores' | 'security'>('users');
  const [needsAuthenticator, setNeedsAuthenticator] = useState(false);
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [stores, setStores] = useState<Store[] | null>(null);
  const [message, setMessage] = useState<FormResult | null>(null);

  const [reloads, setReloads] = useState(0);
  const reload = useCallback(async () => setReloads((n) => n + 1), []);

  useEffect(() => {
    if (!online) return;
    let current = true;
    void Promise.all([api.listUsers(), api.listStores()]).then(([userResult, storeResult]) => {
      if (!current) return;
      if (storeResult.ok) setStores(storeResult.data);
      else setMessage({ text: `Failed to fetch stores: ${storeResult.message}`, error: true });
      if (userResult.ok) setUsers(userResult.data);
      else setMessage({ text: `Failed to fetch data: ${userResult.message}`, error: true });
      setNeedsAuthenticator(!userResult.ok && userResult.secondFactor === true);
    });
    return () => {
      current = false;
    };
  }, [online, api, reloads]);

  return (
    <section className="card" aria-labelledby="admin-title">
      <h1 id="admin-title">Admin</h1>
      {online ? null : (
        <p className="notice" role="status">
          Needs a connection: managing users and stores works only online.
        </p>
      )}
      <div role="tablist" aria-label="Admin" className="tabs">
        <button type="button" role="tab" id="tab-users" aria-selected={tab === 'users'} aria-controls="admin-panel" onClick={() => setTab('users')}>
          Manage Users
        </button>
        <button type="button" role="tab" id="tab-stores" aria-selected={tab === 'stores'} aria-controls="admin-panel" onClick={() => setTab('stores')}>
          Manage Stores
        </button>
        <button type="button" role="tab" id="tab-security" aria-selected={tab === 'security'} aria-controls="admin-panel" onClick={() => setTab('security')}>
          Security
        </button>
      </div>
      <FormMessage message={message} />
      {needsAuthenticator && ![...account.authenticators, ...account.securityKeys].some((factor) => factor.verified) ? (
        <p className="notice">
          <Link to="/settings?tab=authenticator">Set up an authenticator app</Link> to use the admin actions.
        </p>
      ) : null}
      <div role="tabpanel" id="admin-panel" aria-labelledby={`tab-${tab}`}>
        {tab === 'security' ? (
          <SecurityTab online={online} onResult={setMessage} />
        ) : users === null || stores === null ? (
          online && !needsAuthenticator ? <p>Loading...</p> : null
        ) : tab === 'users' ? (
          <UsersTab users={users} stores={stores} online={online} onChanged={reload} onResult={setMessage} />
        ) : (
          <StoresTab users={users} stores={stores} online={online} onChanged={reload} onResult={setMessage} />
        )}
      </div>
    </section>
  );
}
