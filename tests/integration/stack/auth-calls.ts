/**
 * Raw Auth requests for the session and sign-in suites, sent from a chosen loopback
 * address (127.0.0.2, 127.0.0.3...: all of 127/8 reaches the stack on Linux), so one
 * test machine can play a shop's tablet and an attacker elsewhere.
 */
import { request } from 'node:http';
import type { TestStack } from '../../support/local-stack.ts';

export type AuthAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: Record<string, unknown> };

export function authCall(
  stack: TestStack,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; from?: string } = {},
): Promise<AuthAnswer> {
  const url = new URL(`${stack.url}/auth/v1${path}`);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        localAddress: options.from ?? '127.0.0.1',
        headers: {
          apikey: stack.keys.anonKey,
          'Content-Type': 'application/json',
          'X-Supabase-Api-Version': '2024-01-01',
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export type Session = { access_token: string; refresh_token: string; expires_in: number; expires_at: number };

export async function signInFrom(stack: TestStack, email: string, password: string, from?: string): Promise<AuthAnswer> {
  return authCall(stack, 'POST', '/token?grant_type=password', { body: { email, password }, from });
}

export async function passwordSession(stack: TestStack, email: string, password: string): Promise<Session> {
  const answer = await signInFrom(stack, email, password);
  if (answer.status !== 200) throw new Error(`sign-in as ${email} failed: ${JSON.stringify(answer.body)}`);
  return answer.body as unknown as Session;
}

export function refresh(stack: TestStack, refreshToken: string): Promise<AuthAnswer> {
  return authCall(stack, 'POST', '/token?grant_type=refresh_token', { body: { refresh_token: refreshToken } });
}

export function currentUser(stack: TestStack, accessToken: string): Promise<AuthAnswer> {
  return authCall(stack, 'GET', '/user', { token: accessToken });
}

export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

let counter = 0;

/** A fresh confirmed user of a store, made through the admin API, so each test has its own sessions. */
export async function freshUser(stack: TestStack, storeId: string, password = 'tyre-42-rim'): Promise<{ id: string; email: string; password: string }> {
  counter += 1;
  const email = `person${counter}.${Date.now()}@example.com`;
  const { data, error } = await stack.service().auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    app_metadata: { store_id: storeId },
  });
  if (error || !data.user) throw new Error(`could not create ${email}: ${error?.message}`);
  return { id: data.user.id, email, password };
}
