import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { authLimits } from '../../domain/limits.ts';
import { groupedSecret } from '../../domain/second-factor.ts';
import type { NewAuthenticator } from '../../sync/authenticator-api.ts';
import type { FormResult } from '../../ui/NumberFieldsForm.tsx';
import { FormMessage } from '../../ui/NumberFieldsForm.tsx';
import { useAccount, useAdminApi, useAuthenticatorApi, useSyncStatus } from '../session/session-context.tsx';
import { SecurityKeysSection } from './SecurityKeysSection.tsx';

const defaultName = 'Authenticator app';

/**
 * The signed-in person's authenticator apps: set one up (a QR code to scan, or the key to
 * type, then a first code to confirm), see which ones sign-in asks for, remove one; and
 * beside them their security keys and passkeys (SecurityKeysSection). Any person may; an
 * admin must have one or the other while the group requires it. Needs a connection.
 * docs/security.md, "Multi-factor sign-in".
 */
export function AuthenticatorTab() {
  const account = useAccount();
  const api = useAuthenticatorApi();
  const admin = useAdminApi();
  const { online } = useSyncStatus();
  const [name, setName] = useState(defaultName);
  const [pending, setPending] = useState<NewAuthenticator | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormResult | null>(null);
  const [required, setRequired] = useState(false);
  const verified = account.authenticators.filter((factor) => factor.verified);
  const keys = account.securityKeys.filter((factor) => factor.verified);

  useEffect(() => {
    if (!account.isAdmin || !online) return;
    let current = true;
    void admin.securitySettings().then((result) => {
      if (current && result.ok) setRequired(result.data.admins_need_mfa);
    });
    return () => {
      current = false;
    };
  }, [account.isAdmin, online, admin]);

  async function start(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    const result = await api.enrol(name || defaultName);
    setBusy(false);
    if (!result.ok) return setMessage({ text: `Could not set up the authenticator: ${result.message}`, error: true });
    setPending(result.data);
    setCode('');
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!pending) return;
    setBusy(true);
    const result = await api.confirm(pending.factorId, code);
    setBusy(false);
    if (!result.ok) return setMessage({ text: result.message, error: true });
    setPending(null);
    setName(defaultName);
    setMessage({ text: 'Authenticator added. From now on signing in asks for your password and a code from it.', error: false });
  }

  async function cancel() {
    if (pending) await api.cancel(pending.factorId);
    setPending(null);
    setMessage(null);
  }

  async function remove(id: string, label: string) {
    const last = verified.length + keys.length === 1;
    const warning = last ? ' Signing in will then ask for your password alone.' : '';
    if (!window.confirm(`Remove the authenticator "${label}"?${warning}`)) return;
    const result = await api.remove(id);
    setMessage(result.ok ? { text: `Authenticator "${label}" removed.`, error: false } : { text: `Could not remove the authenticator: ${result.message}`, error: true });
  }

  return (
    <div className="authenticator">
      <h2>Authenticator app</h2>
      {verified.length === 0 && keys.length > 0 ? (
        <p>
          You can add an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password and the like) as well as your security key:
          signing in then accepts the six-digit code the app shows instead of the key.
        </p>
      ) : verified.length === 0 ? (
        <p>
          Signing in uses your password alone. Add an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password and the like) so
          that a stolen password is not enough: signing in then also asks for the six-digit code the app shows.
        </p>
      ) : (
        <p>Signing in asks for your password and a code from {verified.length === 1 ? 'this authenticator' : 'one of these authenticators'}:</p>
      )}
      {account.isAdmin && required && verified.length === 0 && keys.length === 0 ? (
        <p className="notice" role="status">
          Administrators must use an authenticator app: set one up here before using the admin actions.
        </p>
      ) : null}
      {!online ? (
        <p className="notice" role="status">
          Needs a connection: authenticators and security keys are set up and removed only online.
        </p>
      ) : null}
      {verified.length > 0 ? (
        <ul className="authenticators">
          {verified.map((factor) => (
            <li key={factor.id}>
              <strong>{factor.name}</strong>
              {factor.createdAt ? ` (added ${factor.createdAt.slice(0, 10)})` : ''}{' '}
              <button type="button" className="danger" disabled={!online || busy} onClick={() => void remove(factor.id, factor.name)} aria-label={`Remove ${factor.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <FormMessage message={message} />
      {pending ? (
        <form className="card authenticator-setup" onSubmit={(event) => void confirm(event)} aria-label="Confirm the authenticator">
          <p>Scan this QR code with your authenticator app, or type the key below into it:</p>
          <img src={pending.qrCode} alt="QR code for your authenticator app" width={240} height={240} />
          <p>
            Key: <code className="secret">{groupedSecret(pending.secret)}</code>
          </p>
          <label>
            Code from the app
            <input inputMode="numeric" autoComplete="one-time-code" maxLength={7} required value={code} onChange={(e) => setCode(e.target.value)} />
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={!online || busy}>
              Confirm
            </button>
            <button type="button" onClick={() => void cancel()}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <form className="authenticator-start" onSubmit={(event) => void start(event)} aria-label="Add an authenticator">
          <label>
            Name of the new authenticator
            <input value={name} maxLength={authLimits.mfaFactorNameMaxLength} onChange={(e) => setName(e.target.value)} />
          </label>
          <button type="submit" className="primary" disabled={!online || busy}>
            Set up authenticator
          </button>
        </form>
      )}
      <SecurityKeysSection keys={account.securityKeys} othersVerified={verified.length} online={online} />
    </div>
  );
}
