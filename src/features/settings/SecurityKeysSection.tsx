import { useState } from 'react';
import type { FormEvent } from 'react';
import { authLimits } from '../../domain/limits.ts';
import type { Authenticator } from '../../domain/second-factor.ts';
import { securityKeysUnavailable } from '../../sync/authenticator-api.ts';
import type { FormResult } from '../../ui/NumberFieldsForm.tsx';
import { FormMessage } from '../../ui/NumberFieldsForm.tsx';
import { useAuthenticatorApi } from '../session/session-context.tsx';

const defaultName = 'Security key';

/**
 * The signed-in person's security keys and passkeys, beside their authenticator apps: add
 * one (the browser asks to touch the key or confirm the passkey; the server checks what it
 * made), see them, remove one. `othersVerified` counts the person's other second factors,
 * so removing the last of all says what sign-in becomes. docs/security.md, "Multi-factor
 * sign-in".
 */
export function SecurityKeysSection({ keys, othersVerified, online }: { keys: Authenticator[]; othersVerified: number; online: boolean }) {
  const api = useAuthenticatorApi();
  const [name, setName] = useState(defaultName);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormResult | null>(null);
  const verified = keys.filter((key) => key.verified);
  // Said before the button is pressed: this browser, or this address, cannot add a key.
  const unavailable = securityKeysUnavailable();

  async function add(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    const result = await api.addSecurityKey(name || defaultName);
    setBusy(false);
    if (!result.ok) return setMessage({ text: `Could not add the security key: ${result.message}`, error: true });
    setName(defaultName);
    setMessage({ text: 'Security key added. Signing in can now ask you to touch it (or confirm the passkey) after your password.', error: false });
  }

  async function remove(id: string, label: string) {
    const last = verified.length + othersVerified === 1;
    const warning = last ? ' Signing in will then ask for your password alone.' : '';
    if (!window.confirm(`Remove the security key "${label}"?${warning}`)) return;
    setBusy(true);
    const result = await api.remove(id);
    setBusy(false);
    setMessage(result.ok ? { text: `Security key "${label}" removed.`, error: false } : { text: `Could not remove the security key: ${result.message}`, error: true });
  }

  return (
    <section className="security-keys" aria-labelledby="security-keys-title">
      <h2 id="security-keys-title">Security key or passkey</h2>
      {verified.length === 0 ? (
        <p>
          A security key (a YubiKey and the like) or a passkey on this device (fingerprint, face or screen lock) can be the second step instead of, or
          as well as, an authenticator app: signing in then asks you to touch the key or confirm the passkey.
        </p>
      ) : (
        <p>Signing in can ask for {verified.length === 1 ? 'this security key' : 'one of these security keys'}:</p>
      )}
      {verified.length > 0 ? (
        <ul className="authenticators" aria-label="Security keys">
          {verified.map((key) => (
            <li key={key.id}>
              <strong>{key.name}</strong>
              {key.createdAt ? ` (added ${key.createdAt.slice(0, 10)})` : ''}{' '}
              <button type="button" className="danger" disabled={!online || busy} onClick={() => void remove(key.id, key.name)} aria-label={`Remove ${key.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {unavailable ? (
        <p className="notice" role="status">
          {unavailable}
        </p>
      ) : null}
      <FormMessage message={message} />
      <form className="authenticator-start" onSubmit={(event) => void add(event)} aria-label="Add a security key">
        <label>
          Name of the new security key
          <input value={name} maxLength={authLimits.mfaFactorNameMaxLength} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={!online || busy || unavailable !== null}>
          {busy ? 'Waiting for the key...' : 'Use a security key or passkey'}
        </button>
      </form>
    </section>
  );
}
