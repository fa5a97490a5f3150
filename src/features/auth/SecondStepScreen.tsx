import { useState } from 'react';
import type { FormEvent } from 'react';
import { useAccount, useAuthenticatorApi } from '../session/session-context.tsx';

/**
 * The second step asked after the password when the account has an authenticator app
 * (the six digits the app shows now) or a security key or passkey ("Use your security
 * key": the browser asks to touch the key or confirm the passkey); with both, either
 * does. Until one is given the app does not open; the session kept on the device then
 * carries the second step (aal2), also offline and across refreshes. Signing out instead
 * goes through the guard the caller passes (edits waiting are never dropped unasked).
 */
export function SecondStepScreen({ onSignOut }: { onSignOut: () => void }) {
  const account = useAccount();
  const api = useAuthenticatorApi();
  const choices = account.authenticators.filter((factor) => factor.verified);
  const keys = account.securityKeys.filter((factor) => factor.verified);
  const hasApp = choices.length > 0;
  const [factorId, setFactorId] = useState(choices[0]?.id ?? '');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!hasApp) return signInWithKey();
    setBusy(true);
    setError(null);
    const result = await api.verify(factorId, code);
    setBusy(false);
    // Verified: the stored session changes and the app opens by itself.
    if (!result.ok) setError(result.message);
  }

  async function signInWithKey() {
    const first = keys[0];
    if (!first) return;
    setBusy(true);
    setError(null);
    const result = await api.useSecurityKey(first.id);
    setBusy(false);
    if (!result.ok) setError(result.message);
  }

  const keyButton = (
    <button type={hasApp ? 'button' : 'submit'} className={hasApp ? undefined : 'primary'} disabled={busy} onClick={hasApp ? () => void signInWithKey() : undefined}>
      Use your security key
    </button>
  );

  return (
    <main className="login">
      <form className="card login-card" onSubmit={(event) => void submit(event)} aria-labelledby="second-step-title">
        <h1 id="second-step-title">{hasApp ? 'Enter your code' : 'Use your security key'}</h1>
        {hasApp ? (
          <>
            <p>
              Signed in as {account.email}. Open your authenticator app and enter the six-digit code it shows for this account.
            </p>
            {choices.length > 1 ? (
              <label>
                Authenticator
                <select value={factorId} onChange={(e) => setFactorId(e.target.value)}>
                  {choices.map((factor) => (
                    <option key={factor.id} value={factor.id}>
                      {factor.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <label>
              Code
              <input
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9 ]*"
                maxLength={7}
                required
                autoFocus
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </label>
          </>
        ) : (
          <p>Signed in as {account.email}. Press the button, then touch your security key or confirm the passkey when the browser asks.</p>
        )}
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        {hasApp ? (
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Checking...' : 'Verify'}
          </button>
        ) : null}
        {keys.length > 0 ? (
          <>
            {hasApp ? <p>Or use your security key or passkey instead of the code:</p> : null}
            {keyButton}
          </>
        ) : null}
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
        <p className="hint">
          Lost your phone or key? An administrator can remove your authenticators from the Admin screen; then sign in with your password alone.
        </p>
      </form>
    </main>
  );
}
