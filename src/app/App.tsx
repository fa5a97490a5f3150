import type { RuntimeConfig } from './runtime-config.ts';

/** The app's root. The screens arrive with the app shell; until then it names itself and its backend. */
export function App({ config }: { config: RuntimeConfig }) {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
      <h1>Service Department Dashboard</h1>
      <p>Ready to crush your goals today?</p>
      <p>
        Backend: <code>{config.supabaseUrl}</code>
      </p>
    </main>
  );
}
