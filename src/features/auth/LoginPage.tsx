import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useSignIn } from '../session/session-context.tsx';

/** E-mail and password; on success the guard routes to the screen the person asked for. `notice` shows below the form. */
export function LoginPage({ notice }: { notice?: ReactNode }) {
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const message = await signIn(email, password);
    setBusy(false);
    if (message) setError(message);
  }

  return (
    <main className="login">
      <form className="card login-card" onSubmit={(event) => void submit(event)} aria-labelledby="login-title">
        <h1 id="login-title">Service Department Dashboard</h1>
        <label>
          E-mail
          <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Password
          <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Logging in...' : 'Login'}
        </button>
      </form>
      {notice}
    </main>
  );
}
