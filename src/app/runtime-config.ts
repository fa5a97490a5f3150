/**
 * Which backend this copy of the app talks to. Read at start from /app-config.json,
 * served next to the app (the service worker keeps the last copy for offline starts),
 * so one build serves any backend; falls back to the build-time VITE_SUPABASE_URL and
 * VITE_SUPABASE_ANON_KEY, then to the embedded local backend.
 */

export type RuntimeConfig = { supabaseUrl: string; supabaseAnonKey: string };

export type ConfigSources = {
  fetchConfig: () => Promise<unknown>;
  buildTime: { url?: string; anonKey?: string };
};

const localDefault: RuntimeConfig = {
  supabaseUrl: 'http://localhost:54321',
  // The anon key of the embedded backend's published demo secret; useless elsewhere.
  supabaseAnonKey:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0',
};

function isRuntimeConfig(value: unknown): value is RuntimeConfig {
  if (typeof value !== 'object' || value === null) return false;
  const { supabaseUrl, supabaseAnonKey } = value as Record<string, unknown>;
  return (
    typeof supabaseUrl === 'string' &&
    /^https?:\/\//.test(supabaseUrl) &&
    typeof supabaseAnonKey === 'string' &&
    supabaseAnonKey.split('.').length === 3
  );
}

export async function resolveRuntimeConfig(sources: ConfigSources): Promise<RuntimeConfig> {
  try {
    const served = await sources.fetchConfig();
    if (isRuntimeConfig(served)) return served;
  } catch {
    // No served config (dev server, or a host without it): use what the build knows.
  }
  const { url, anonKey } = sources.buildTime;
  if (url && anonKey) return { supabaseUrl: url, supabaseAnonKey: anonKey };
  return localDefault;
}

export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  return resolveRuntimeConfig({
    fetchConfig: async () => {
      const response = await fetch('/app-config.json', { cache: 'no-cache' });
      if (!response.ok) throw new Error(`app-config.json: ${response.status}`);
      return response.json() as Promise<unknown>;
    },
    buildTime: {
      url: import.meta.env.VITE_SUPABASE_URL as string | undefined,
      anonKey: import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined,
    },
  });
}
