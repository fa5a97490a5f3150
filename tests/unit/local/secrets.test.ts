import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nextRestartDelay } from '../../../scripts/backend-supervisor.ts';
import { demoJwtSecret } from '../../../supabase/local/config.ts';
import { isLoopbackHost, refusalToListen, resolveJwtSecret } from '../../../supabase/local/secrets.ts';

describe('the JWT secret', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is generated once, kept in a 0600 file and reused on the next start', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'secret-'));
    const first = await resolveJwtSecret({ env: {}, dataDir: dir });
    expect(first.source).toEqual({ kind: 'generated', file: path.join(dir, 'jwt-secret') });
    expect(first.secret).not.toBe(demoJwtSecret);
    expect(first.secret.length).toBeGreaterThanOrEqual(64);
    expect((await stat(path.join(dir, 'jwt-secret'))).mode & 0o777).toBe(0o600);
    expect((await readFile(path.join(dir, 'jwt-secret'), 'utf8')).trim()).toBe(first.secret);

    const second = await resolveJwtSecret({ env: {}, dataDir: dir });
    expect(second).toEqual({ secret: first.secret, source: { kind: 'kept', file: path.join(dir, 'jwt-secret') } });
  });

  it('comes from SUPABASE_JWT_SECRET when set, and a kept file too short is an error, not a weak secret', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'secret-'));
    const mine = 'x'.repeat(40);
    expect(await resolveJwtSecret({ env: { SUPABASE_JWT_SECRET: mine }, dataDir: dir })).toEqual({ secret: mine, source: { kind: 'environment' } });
    await writeFile(path.join(dir, 'jwt-secret'), 'short\n');
    await expect(resolveJwtSecret({ env: {}, dataDir: dir })).rejects.toThrow(/no usable secret/);
  });

  it('is refused beyond localhost when it is the published demo secret', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2']) {
      expect(isLoopbackHost(host), host).toBe(true);
      expect(refusalToListen(demoJwtSecret, host), host).toBeNull();
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'dashboard.local', '128.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(false);
      expect(refusalToListen(demoJwtSecret, host), host).toMatch(/Refusing to listen on .* public demo JWT secret/);
      expect(refusalToListen('y'.repeat(48), host), host).toBeNull();
    }
  });
});

describe('the backend restart pause', () => {
  it('starts at 0.5 s, doubles while the backend keeps dying, stops at 30 s, and starts over after a minute of running', () => {
    const pauses: number[] = [];
    let pause: number | null = null;
    for (let i = 0; i < 9; i += 1) {
      pause = nextRestartDelay(pause, 1_000);
      pauses.push(pause);
    }
    expect(pauses).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(nextRestartDelay(30_000, 59_999)).toBe(30_000);
    expect(nextRestartDelay(30_000, 60_000)).toBe(500);
  });
});
