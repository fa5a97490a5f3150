import { useState } from 'react';
import type { FormEvent } from 'react';
import { fieldLimits } from '../../domain/limits.ts';
import type { AdminUser, Store } from '../../server/admin-api.ts';
import type { FormResult } from '../../ui/NumberFieldsForm.tsx';
import { useAdminApi } from '../session/session-context.tsx';
import { StoreDeletionDialog } from './StoreDeletionDialog.tsx';

type Props = { stores: Store[]; users: AdminUser[]; online: boolean; onChanged(): Promise<void>; onResult(result: FormResult): void };

/** The first two users of a store, then "+N more". */
export function storeMembers(store: Store, users: AdminUser[]): string {
  const members = users.filter((u) => (u.app_metadata?.store_id ?? u.user_metadata?.store_id) === store.id).map((u) => u.email ?? u.id);
  if (members.length === 0) return '-';
  return members.length > 2 ? `${members.slice(0, 2).join(', ')} +${members.length - 2} more` : members.join(', ');
}

/** Stores: ordered by name, add and edit (name required, subdomain optional), delete once its name is typed. */
export function StoresTab({ stores, users, online, onChanged, onResult }: Props) {
  const api = useAdminApi();
  const [draft, setDraft] = useState<{ id: string | null; name: string; subdomain: string }>({ id: null, name: '', subdomain: '' });
  const editing = draft.id !== null;
  const [deleting, setDeleting] = useState<Store | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const name = draft.name.trim();
    if (!name) return onResult({ text: 'Failed to add/update store: A store name is required.', error: true });
    const subdomain = draft.subdomain.trim().toLowerCase() || null;
    const result = editing ? await api.updateStore(draft.id as string, name, subdomain) : await api.addStore(name, subdomain);
    if (!result.ok) return onResult({ text: `Failed to add/update store: ${result.message}`, error: true });
    onResult({ text: `Store "${name}" ${editing ? 'updated' : 'added'} successfully!`, error: false });
    setDraft({ id: null, name: '', subdomain: '' });
    await onChanged();
  }

  async function remove(store: Store) {
    setDeleting(null);
    const result = await api.deleteStore(store.id);
    onResult(result.ok ? { text: `Store "${store.name}" deleted successfully!`, error: false } : { text: `Failed to delete store: ${result.message}`, error: true });
    if (result.ok) await onChanged();
  }

  return (
    <div className="admin-tab">
      <form className="card admin-form" onSubmit={(event) => void submit(event)} aria-label={editing ? 'Edit store' : 'Add store'}>
        <h2>{editing ? 'Edit Store' : 'Add Store'}</h2>
        <label>
          Store name
          <input value={draft.name} required maxLength={fieldLimits.stores.name.maxLength} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </label>
        <label>
          Subdomain (optional)
          <input value={draft.subdomain} maxLength={fieldLimits.stores.subdomain.maxLength} onChange={(e) => setDraft({ ...draft, subdomain: e.target.value })} />
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={!online}>
            {editing ? 'Update Store' : 'Add Store'}
          </button>
          {editing ? (
            <button type="button" onClick={() => setDraft({ id: null, name: '', subdomain: '' })}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      {stores.length === 0 ? (
        <p>No stores found...</p>
      ) : (
        <div className="scroll-x">
          <table className="admin-table">
            <caption>Stores</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Subdomain</th>
                <th scope="col">Users</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {stores.map((store) => (
                <tr key={store.id}>
                  <td>{store.name}</td>
                  <td>{store.subdomain ?? '-'}</td>
                  <td>{storeMembers(store, users)}</td>
                  <td className="actions">
                    <button type="button" disabled={!online} onClick={() => setDraft({ id: store.id, name: store.name, subdomain: store.subdomain ?? '' })} aria-label={`Edit ${store.name}`}>
                      Edit
                    </button>
                    <button type="button" className="danger" disabled={!online} onClick={() => setDeleting(store)} aria-label={`Delete ${store.name}`}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {deleting ? <StoreDeletionDialog store={deleting} onDelete={() => void remove(deleting)} onClose={() => setDeleting(null)} /> : null}
    </div>
  );
}
