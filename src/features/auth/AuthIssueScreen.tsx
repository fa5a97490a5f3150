import { useEffect, useState } from 'react';

export const autoLogoutSeconds = 10;

/**
 * Shown when the account has no store (or its permissions could not be read): it says
 * why, and logs out after 10 seconds or at once on "Logout Now". Logging out goes
 * through the same guard as any sign-out, so unsent edits are never dropped unasked.
 */
export function AuthIssueScreen({ message, onLogout }: { message: string; onLogout: () => void }) {
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
