import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import WebSocket from 'ws';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';
import type { HttpCase } from './hostile/http-cases.ts';
import { httpCases } from './hostile/http-cases.ts';
import type { Tokens } from './hostile/tokens.ts';
import { seeded } from '../../support/random.ts';
import { hostileTokens } from './hostile/tokens.ts';
import { rawCases, sendRaw } from './hostile/raw-cases.ts';
import type { SocketOutcome } from './hostile/socket-cases.ts';
import { runSocket, socketCases } from './hostile/socket-cases.ts';

// The hostile-request suite: requests generated from a fixed seed (so a failure
// reproduces) across the HTTP and websocket paths. However malformed, none may get a 5xx
// other than 503, none may change data, and the backend must still serve correctly after.

const seed = 20261123;
const counts = { http: 1500, raw: 300, sockets: 150 };

/** Every row the API could reach or the suite could touch, hashed per table. */
async function fingerprint(stack: TestStack): Promise<Record<string, string>> {
  const { rows: tables } = await stack.database.query<{ name: string }>(
    `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
     where table_type = 'BASE TABLE' and (table_schema = 'public' or (table_schema = 'auth' and table_name in ('users', 'sessions', 'refresh_tokens', 'identities')))
     order by 1`,
  );
  const print: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await stack.database.query<{ digest: string | null }>(`select md5(string_agg(t::text, '|' order by t::text)) as digest from ${name} t`);
    print[name] = rows[0]?.digest ?? 'empty';
  }
  return print;
}

const isAllowed = (status: number) => status < 500 || status === 503;

function checkHttpAnswer(c: HttpCase, status: number, text: string, context: string): void {
  expect(isAllowed(status), context).toBe(true);
  if (status < 400 || c.method === 'HEAD') return;
  const body = JSON.parse(text) as Record<string, unknown>;
  // The gateway's refusal of a request without one of the project's API keys, in its own shape.
  const gatewayMessages = ['No API key found in request', 'Invalid API key'];
  if (status === 401 && !c.path.startsWith('/functions/v1') && gatewayMessages.includes(body.message as string)) {
    expect(Object.keys(body).sort(), context).toEqual(['hint', 'message']);
    return;
  }
  if (c.path.startsWith('/auth/v1')) {
    // GoTrue's shape: {code, error_code, msg}, or {code, message} for a client that sent an API version.
    expect(typeof (body.msg ?? body.message), context).toBe('string');
    expect(body, context).toHaveProperty('code');
  } else if (c.path.startsWith('/functions/v1')) {
    // The function's own {error}, or the hosted {code, message} for a function that does not exist.
    expect(typeof (body.error ?? body.message), context).toBe('string');
  } else {
    expect(Object.keys(body).sort(), context).toEqual(expect.arrayContaining(['code', 'details', 'hint', 'message']));
    expect(typeof body.message, context).toBe('string');
  }
}

for (const engine of engines) {
  describe(`the backend under hostile requests on ${engine}`, () => {
    let stack: TestStack;
    let tokens: Tokens;

    beforeAll(async () => {
      // Aggregates, plans and tx=rollback on, and a computed relationship, a computed field
      // and a view (hostile/objects.sql), so that their code paths face the hostile requests too.
      stack = await startTestStack({
        engine,
        rest: { aggregatesEnabled: true, planEnabled: true, txEnd: 'commit-allow-override' },
        setupSql: await readFile(new URL('./hostile/objects.sql', import.meta.url), 'utf8'),
      });
      const manager = await stack.signIn('manager@example.com');
      const managerToken = (await manager.auth.getSession()).data.session?.access_token ?? '';
      tokens = hostileTokens(stack.keys.jwtSecret, managerToken, stack.keys.anonKey, demo.managerId);
    });
    afterAll(() => stack?.stop());

    it('answers over 2,000 generated requests without a 5xx but 503, changes nothing and keeps serving', async () => {
      // The backend runs in this process: any ERROR it logs is an unexpected exception that a
      // request reached (answered or not), which the suite counts as a defect.
      const internalErrors: string[] = [];
      const writeToStderr = process.stderr.write.bind(process.stderr);
      process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
        const text = String(chunk);
        if (/^\S+ ERROR /.test(text)) internalErrors.push(text.trim());
        return writeToStderr(chunk, ...rest);
      }) as typeof process.stderr.write;
      onTestFinished(() => {
        process.stderr.write = writeToStderr;
      });
      const before = await fingerprint(stack);
      const pick = seeded(seed);
      const statuses = new Map<string, number>();
      const tally = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
      let sent = 0;

      for (const [i, c] of httpCases(pick, tokens, counts.http).entries()) {
        // Redirects (an e-mail link's 303 to the site) are answers in themselves, not to be followed.
        const response = await fetch(`${stack.url}${c.path}`, { method: c.method, headers: c.headers, body: c.method === 'GET' || c.method === 'HEAD' ? undefined : c.body, redirect: 'manual' });
        const text = await response.text();
        sent += 1;
        tally(`http ${response.status}`);
        const body = typeof c.body === 'string' ? c.body.slice(0, 80) : c.body ? `<${c.body.length} bytes>` : '';
        checkHttpAnswer(c, response.status, text, `http case ${i}: ${c.method} ${c.path.slice(0, 200)} ${JSON.stringify(c.headers).slice(0, 120)} ${body} -> ${response.status} ${text.slice(0, 200)}`);
      }

      for (const [i, c] of rawCases(pick, tokens, counts.raw).entries()) {
        const answer = await sendRaw(stack.port, c);
        sent += 1;
        tally(`raw ${answer.status ?? 'closed'}`);
        const context = `raw case ${i} (${c.name}): ${JSON.stringify(c.bytes.toString('latin1').slice(0, 160))} -> ${JSON.stringify(answer.text.slice(0, 200))}`;
        if (answer.status !== null) expect(isAllowed(answer.status), context).toBe(true);
        // Only a request cut short may go unanswered: the server closes it.
        else expect(c.cut, context).toBe(true);
      }

      const outcomes: SocketOutcome[] = [];
      for (const [i, c] of socketCases(pick, tokens, counts.sockets).entries()) {
        const outcome = await runSocket(stack.url, c);
        outcomes.push(outcome);
        sent += 1 + ('framesSent' in outcome ? outcome.framesSent + 1 : 0);
        tally(`websocket ${outcome.kind}${'status' in outcome ? ` ${outcome.status}` : ''}${'code' in outcome ? ` ${outcome.code}` : ''}`);
        const context = `socket case ${i}: ${c.path}?${c.query.slice(0, 80)} frames ${JSON.stringify(c.frames).slice(0, 200)} -> ${JSON.stringify(outcome)}`;
        if (outcome.kind === 'refused') expect(isAllowed(outcome.status) && outcome.status >= 400, context).toBe(true);
        // A session the server keeps answers its heartbeat; one it ends, it ends for a protocol reason.
        expect(outcome.kind, context).not.toBe('silent');
        if (outcome.kind === 'closed') expect([1002, 1003, 1007, 1009], context).toContain(outcome.code);
      }

      expect(sent).toBeGreaterThanOrEqual(2000);
      expect(internalErrors).toEqual([]);
      expect(await fingerprint(stack)).toEqual(before);

      // Still serving, and still right: REST, Auth and Realtime.
      const read = await fetch(`${stack.url}/rest/v1/stores?select=name`, { headers: { apikey: tokens.anon, Authorization: `Bearer ${tokens.manager}` } });
      expect(await read.json()).toEqual([{ name: 'Demo Motors' }]);
      const user = await fetch(`${stack.url}/auth/v1/user`, { headers: { apikey: tokens.anon, Authorization: `Bearer ${tokens.manager}` } });
      expect(await user.json()).toMatchObject({ email: 'manager@example.com' });
      const ws = new WebSocket(`${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${tokens.anon}&vsn=2.0.0`);
      const reply = await new Promise<string>((resolve, reject) => {
        ws.on('open', () => ws.send(JSON.stringify([null, 'alive', 'phoenix', 'heartbeat', {}])));
        ws.on('message', (data) => resolve(String(data)));
        ws.on('error', reject);
      });
      ws.close();
      expect(JSON.parse(reply)).toEqual([null, 'alive', 'phoenix', 'phx_reply', { status: 'ok', response: {} }]);
      // The suite reached many kinds of answer, not one refusal over and over.
      expect([...statuses.keys()].filter((key) => key.startsWith('http')).length).toBeGreaterThan(8);
      expect(outcomes.some((o) => o.kind === 'answered-heartbeat')).toBe(true);
    }, 240_000);
  });
}
