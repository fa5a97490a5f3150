import { useState } from 'react';
import type { FormEvent } from 'react';
import type { AdminUser, Store, UserProfileInput } from '../../server/admin-api.ts';
import { authLimits } from '../../domain/limits.ts';
import { isAdminFlag } from '../../domain/people.ts';
import type { FormResult } from '../../ui/NumberFieldsForm.tsx';
import { useAdminApi } from '../session/session-context.tsx';

type Draft = { id: string | null; email: string; password: string; firstName: string; lastName: string; displayName: string; isAdmin: boolean; storeId: string };
const emptyDraft: Draft = { id: null, email: '', password: '', firstName: '', lastName: '', displayName: '', isAdmin: false, storeId: '' };
const optional = (text: string) => (text.trim() ? text.trim() : null);

function draftOf(user: AdminUser): Draft {
  const meta = user.user_metadata ?? {};
  return {
    id: user.id,
    email: user.email ?? '',
    password: '',
    firstName: meta.firstName ?? '',
    lastName: meta.lastName ?? '',
    displayName: meta.displayName ?? '',
    isAdmin: isAdminFlag(user.app_metadata?.is_admin ?? meta.is_admin),
    storeId: user.app_metadata?.store_id ?? meta.store_id ?? '',
  };
}

/** "Yes" with the apps' names, "No", or an app being set up. */
function authenticatorText(user: AdminUser): string {
  const verified = (user.factors ?? []).filter((factor) => factor.status === 'verified');
  if (verified.length > 0) return `Yes (${verified.map((factor) => factor.friendly_name || 'Authenticator app').join(', ')})`;
  return (user.factors ?? []).length > 0 ? 'Being set up' : 'No';
}

type Props = { users: AdminUser[]; stores: Store[]; online: boolean; onChanged(): Promise<void>; onResult(result: FormResult): void };

/** Users: list with status, add and edit (e-mail fixed once created), delete with confirmation. */
export function UsersTab({ users, stores, online, onChanged, onResult }: Props) {
  const api = useAdminApi();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [busy, setBusy] = useState(false);
  const editing = draft.id !== null;
  const storeName = (id: string | null | undefined) => stores.find((s) => s.id === id)?.name ?? '-- None --';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(draft.email.trim())) return onResult({ text: 'Failed to add/update user: A valid e-mail address is required.', error: true });
    const tooShort = `Failed to add/update user: Password must be at least ${authLimits.passwordMinLength} characters.`;
    if (!editing && draft.password.length < authLimits.passwordMinLength) return onResult({ text: tooShort, error: true });
    if (editing && draft.password && draft.password.length < authLimits.passwordMinLength) return onResult({ text: tooShort, error: true });
    const profile: UserProfileInput = {
      firstName: optional(draft.firstName),
      lastName: optional(draft.lastName),
      displayName: optional(draft.displayName),
      store_id: draft.storeId || null,
      is_admin: draft.isAdmin,
    };
    setBusy(true);
    const result = editing ? await api.updateUser(draft.id as string, profile, draft.password || undefined) : await api.createUser(draft.email.trim(), draft.password, profile);
    setBusy(false);
    if (!result.ok) return onResult({ text: `Failed to add/update user: ${result.message}`, error: true });
    onResult({ text: `User "${draft.email.trim().toLowerCase()}" ${editing ? 'updated' : 'added'} successfully!`, error: false });
    setDraft(emptyDraft);
    await onChanged();
  }

  async function removeAuthenticators(user: AdminUser) {
    const name = user.email ?? user.id;
    const question = `Remove every authenticator of "${name}"? They then sign in with their password alone until they set up a new one (use this when a phone is lost).`;
    if (!window.confirm(question)) return;
    const result = await api.deleteUserFactors(user.id);
    onResult(result.ok ? { text: `Authenticators of "${name}" removed.`, error: false } : { text: `Failed to remove the authenticators: ${result.message}`, error: true });
    if (result.ok) await onChanged();
  }

  async function remove(user: AdminUser) {
    const name = user.email ?? user.id;
    if (!window.confirm(`Are you sure you want to delete "${name}"? This action cannot be undone.`)) return;
    const result = await api.deleteUser(user.id);
    onResult(result.ok ? { text: `User "${name}" deleted successfully!`, error: false } : { text: `Failed to delete user: ${result.message}`, error: true });
    if (result.ok) await onChanged();
  }

  const field = (key: keyof Draft, label: string, type = 'text', extra: Record<string, unknown> = {}) => (
    <label>
      {label}
      <input type={type} value={String(draft[key])} onChange={(e) => setDraft({ ...draft, [key]: e.target.value })} {...extra} />
    </label>
  );

  return (
    <div className="admin-tab">
      <form className="card admin-form" onSubmit={(event) => void submit(event)} aria-label={editing ? 'Edit user' : 'Add user'}>
        <h2>{editing ? 'Edit User' : 'Add User'}</h2>
        {field('email', 'E-mail', 'email', { readOnly: editing, required: true })}
        {field('password', editing ? 'New password (optional)' : 'Password', 'password', { autoComplete: 'new-password' })}
        {field('firstName', 'First name')}
        {field('lastName', 'Last name')}
        {field('displayName', 'Display name')}
        <label>
          Store
          <select value={draft.storeId} onChange={(e) => setDraft({ ...draft, storeId: e.target.value })}>
            <option value="">-- None --</option>
            {stores.map((store) => (
              <option key={store.id} value={store.id}>
                {store.name}
              </option>
            ))}
          </select>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={draft.isAdmin} onChange={(e) => setDraft({ ...draft, isAdmin: e.target.checked })} />
          Admin
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={!online || busy}>
            {editing ? 'Update User' : 'Add User'}
          </button>
          {editing ? (
            <button type="button" onClick={() => setDraft(emptyDraft)}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      {users.length === 0 ? (
        <p>No users found...</p>
      ) : (
        <div className="scroll-x">
          <table className="admin-table">
            <caption>Users</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Name</th>
                <th scope="col">Store</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Authenticator</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id}>
                  <td>{user.email}</td>
                  <td>{[user.user_metadata?.firstName, user.user_metadata?.lastName].filter(Boolean).join(' ') || '-'}</td>
                  <td>{storeName(user.app_metadata?.store_id ?? user.user_metadata?.store_id)}</td>
                  <td>{isAdminFlag(user.app_metadata?.is_admin) ? 'Admin' : 'User'}</td>
                  <td>{user.email_confirmed_at ? 'Confirmed' : 'Pending'}</td>
                  <td>{authenticatorText(user)}</td>
                  <td className="actions">
                    <button type="button" disabled={!online} onClick={() => setDraft(draftOf(user))} aria-label={`Edit ${user.email}`}>
                      Edit
                    </button>
                    {(user.factors ?? []).length > 0 ? (
                      <button type="button" disabled={!online} onClick={() => void removeAuthenticators(user)} aria-label={`Remove authenticators of ${user.email}`}>
                        Remove authenticator
                      </button>
                    ) : null}
                    <button type="button" className="danger" disabled={!online} onClick={() => void remove(user)} aria-label={`Delete ${user.email}`}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
