import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { resolveSigningKey, signingKeyFileName } from '../../../../supabase/local/auth/signing-keys.ts';
import { keysFromEnv } from '../../../../supabase/local/config.ts';
import { demo } from '../../../support/demo.ts';
import { engines } from '../../../support/test-databases.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { startConformanceStack } from './conformance-stack.ts';

// Asymmetric JWT signing keys (LOCAL_SUPABASE_JWT_SIGNING_ALG), as hosted Supabase's:
// sessions signed with RS256 or ES256 under a `kid`, the public key in the JWKS, getClaims
// verifying locally with it, and every service accepting the tokens (the API keys stay
// HS256, signed with the shared secret).
for (const engine of engines) {
  for (const alg of ['ES256', 'RS256'] as const) {
    describe(`${alg} signing keys on ${engine}`, () => {
      let stack: ConformanceStack;

      beforeAll(async () => {
        stack = await startConformanceStack(engine, { keys: await keysFromEnv({ LOCAL_SUPABASE_JWT_SIGNING_ALG: alg }) });
      });
      afterAll(() => stack?.stop());

      it('signs sessions with the key and publishes its public half in the JWKS', async () => {
        const client = await stack.signIn('manager@example.com');
        const token = (await client.auth.getSession()).data.session?.access_token ?? '';
        const header = decodeProtectedHeader(token);
        expect(header.alg).toBe(alg);
        const jwks = (await (await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`)).json()) as { keys: Array<Record<string, unknown>> };
        expect(jwks.keys).toHaveLength(1);
        expect(jwks.keys[0]).toMatchObject({ kid: header.kid, alg, use: 'sig', kty: alg === 'ES256' ? 'EC' : 'RSA' });
        expect(jwks.keys[0]).not.toHaveProperty('d');
      });

      it('lets getClaims verify a session locally, with the JWKS fetched once and no call to /user', async () => {
        const requests: string[] = [];
        const counting: typeof fetch = (input, init) => {
          requests.push(new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname);
          return fetch(input, init);
        };
        const client = createClient(stack.url, stack.keys.anonKey, {
          auth: { persistSession: false, autoRefreshToken: false },
          realtime: { transport: WebSocket as never },
          global: { fetch: counting },
        });
        await client.auth.signInWithPassword({ email: 'manager@example.com', password: demo.password });
        requests.length = 0;
        const first = await client.auth.getClaims();
        const second = await client.auth.getClaims();
        expect(first.error).toBeNull();
        expect(first.data?.claims).toMatchObject({ sub: demo.managerId, role: 'authenticated', email: 'manager@example.com' });
        expect(second.data?.claims.sub).toBe(demo.managerId);
        expect(requests).toEqual(['/auth/v1/.well-known/jwks.json']);
        // A changed payload no longer matches the signature.
        const token = (await client.auth.getSession()).data.session?.access_token ?? '';
        const [head, payload, signature] = token.split('.');
        const forged = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
        const tampered = `${head}.${Buffer.from(JSON.stringify({ ...forged, role: 'service_role' })).toString('base64url')}.${signature}`;
        const refused = await client.auth.getClaims(tampered);
        expect(refused.error?.message).toMatch(/signature/i);
      });

      it('accepts the sessions in REST, Auth and Realtime, and the HS256 API keys still', async () => {
        const client = await stack.signIn('manager@example.com', demo.password, 'public');
        expect(await client.from('stores').select('name')).toMatchObject({ error: null, data: [{ name: 'Demo Motors' }] });
        expect((await client.auth.getUser()).data.user?.email).toBe('manager@example.com');
        const status = await new Promise<string>((resolve) => {
          client.channel('stores').on('postgres_changes', { event: '*', schema: 'public', table: 'stores' }, () => undefined).subscribe((s) => {
            if (s === 'SUBSCRIBED' || s === 'CHANNEL_ERROR') resolve(s);
          });
        });
        expect(status).toBe('SUBSCRIBED');
        expect((await stack.service('public').from('stores').select('id')).data).toHaveLength(2);
      });

      it('refuses a token signed by another key under the same kid', async () => {
        const client = await stack.signIn('manager@example.com');
        const token = (await client.auth.getSession()).data.session?.access_token ?? '';
        const { kid } = decodeProtectedHeader(token);
        const other = await generateKeyPair(alg);
        const forged = await new SignJWT({ sub: demo.managerId, role: 'authenticated', aud: 'authenticated' })
          .setProtectedHeader({ alg, kid, typ: 'JWT' })
          .setExpirationTime('1h')
          .sign(other.privateKey);
        const rest = await fetch(`${stack.url}/rest/v1/stores`, { headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${forged}` } });
        expect(rest.status).toBe(401);
        const user = await fetch(`${stack.url}/auth/v1/user`, { headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${forged}` } });
        expect(user.status).toBe(403);
      });
    });
  }
}

describe('the signing key in the data folder', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'signing-key-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('is generated once, private to its owner, and reused after a restart', async () => {
    const first = await resolveSigningKey('ES256', folder);
    const file = path.join(folder, signingKeyFileName);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const again = await resolveSigningKey('ES256', folder);
    expect(again.kid).toBe(first.kid);
    // What the first start's key signed, the second start's key verifies.
    const token = await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'ES256', kid: first.kid }).sign(first.privateKey);
    expect((await jwtVerify(token, again.publicKey)).payload.sub).toBe('x');
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ kid: first.kid, alg: 'ES256', kty: 'EC' });
  });

  it('refuses a kept key of another algorithm rather than replace it, and an unusable file', async () => {
    await expect(resolveSigningKey('RS256', folder)).rejects.toThrow(/holds an ES256 key/);
    const broken = await mkdtemp(path.join(tmpdir(), 'signing-key-'));
    await writeFile(path.join(broken, signingKeyFileName), '{"kid": 1}');
    await expect(resolveSigningKey('ES256', broken)).rejects.toThrow(/no usable signing key/);
    await rm(broken, { recursive: true, force: true });
  });
});
