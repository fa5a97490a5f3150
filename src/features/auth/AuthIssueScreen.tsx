import { useEffect, useState } from 'react';

export const autoLogoutSeconds = 10;

type Props = {
  message: string;
  onLogout: () => void;
  /** Logs out and also clears what the browser keeps for this site outside the device database. */
  onLogoutAndClearCache: () => void;
};

/**
 * Shown when the account has no store (or its permissions could not be read): it says
 * why, and logs out after 10 seconds or at once on "Logout Now", or on "Logout and
 * Clear Cache". Logging out goes through the same guard as any sign-out, so unsent
 * edits are never dropped unasked: the person is told how many and chooses.
 */
export function AuthIssueScreen({ message, onLogout, onLogoutAndClearCache }: Props) {
  const [secondsLeft, setSecondsLeft] = useState<number | null>(autoLogoutSeconds);

  useEffect(() => {
    if (secondsLeft === null) return;
    if (secondsLeft === 0) {
      onLogout();
      return;
    }
    const timer = setTimeout(() => setSecondsLeft(secondsLeft - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft, onLogout]);

  return (
    <main className="login">
      <section className="card login-card" aria-labelledby="auth-issue-title">
        <h1 id="auth-issue-title">Authentication Issue</h1>
        <p role="alert">{message}</p>
        <p>Logging out and clearing this device's cached data lets you sign in again once the account is fixed.</p>
        {secondsLeft !== null ? <p aria-live="polite">Logging out automatically in {secondsLeft} seconds.</p> : null}
        <button
          type="button"
          onClick={() => {
            setSecondsLeft(null);
            onLogoutAndClearCache();
          }}
        >
          Logout and Clear Cache
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => {
            setSecondsLeft(null);
            onLogout();
          }}
        >
          Logout Now
        </button>
      </section>
    </main>
  );
}
