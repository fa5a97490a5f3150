import { describe, expect, it } from 'vitest';
import { resolveRuntimeConfig } from '../../../src/app/runtime-config.ts';
import { apiKeysFor, demoJwtSecret } from '../../../supabase/local/config.ts';

const served = { supabaseUrl: 'https://abc.supabase.co', supabaseAnonKey: 'a.b.c' };

describe('resolveRuntimeConfig', () => {
  it('prefers the config served with the app', async () => {
    expect(await resolveRuntimeConfig({ fetchConfig: async () => served, buildTime: { url: 'http://x', anonKey: 'x.y.z' } })).toEqual(served);
  });

  it('falls back to the build-time values when nothing valid is served', async () => {
    const buildTime = { url: 'http://build', anonKey: 'k.e.y' };
    expect(await resolveRuntimeConfig({ fetchConfig: async () => { throw new Error('offline'); }, buildTime })).toEqual({
      supabaseUrl: 'http://build',
      supabaseAnonKey: 'k.e.y',
    });
    expect(await resolveRuntimeConfig({ fetchConfig: async () => ({ supabaseUrl: 'javascript:alert(1)', supabaseAnonKey: 'a.b.c' }), buildTime })).toEqual({
      supabaseUrl: 'http://build',
      supabaseAnonKey: 'k.e.y',
    });
  });

  it('falls back to the embedded backend with the key its demo secret signs', async () => {
    const config = await resolveRuntimeConfig({ fetchConfig: async () => null, buildTime: {} });
    expect(config).toEqual({ supabaseUrl: 'http://localhost:54321', supabaseAnonKey: (await apiKeysFor(demoJwtSecret)).anonKey });
  });
});
