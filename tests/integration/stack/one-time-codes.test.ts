import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';
import type { AuthAnswer } from './auth-calls.ts';
import { authCall } from './auth-calls.ts';
import { lastMail } from './conformance/mailbox.ts';

// One-time codes (recovery, sign-up and invite confirmation, magic links, e-mail change)
// guessed from outside, through real HTTP. Hosted Auth allows 30 verifications per 5
// minutes per address (360 an hour) in bursts of 30; here also per account, and a code
// dies after 5 wrong tries. The throttle's clock is the test's: time moves without sleeping.

const rateLimited = { code: 'over_request_rate_limit', message: 'Request rate limit reached' };
const invalidCode = { code: 'otp_expired', message: 'Token has expired or is invalid' };
const burst = 30;

/** Codes other than `right`, one per try. */
const wrongCode = (right: string, i: number) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0');

/** One loopback address per (test, index): all of 127/8 reaches the stack on Linux. */
const address = (block: number, index: number) => `127.${block}.${Math.floor(index / 250)}.${(index % 250) + 1}`;

/** POSTs to /verify on connections all opened first, then written in one go; the statuses, in order. */
async function verifyAtOnce(stack: TestStack, requests: Array<{ body: unknown; from: string }>): Promise<number[]> {
  const url = new URL(stack.url);
  const sockets = await Promise.all(
    requests.map(({ from }) => new Promise<Socket>((resolve, reject) => {
      const socket = connect({ host: url.hostname, port: Number(url.port), localAddress: from }, () => resolve(socket));
      socket.on('error', reject);
    })),
  );
  const answers = sockets.map((socket) => new Promise<number>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
  }));
  requests.forEach(({ body }, i) => {
    const payload = JSON.stringify(body);
    sockets[i]?.write(
      `POST /auth/v1/verify HTTP/1.1\r\nHost: ${url.host}\r\napikey: ${stack.keys.anonKey}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
    );
  });
  return Promise.all(answers);
}

for (const engine of engines) {
  describe(`one-time codes that cannot be guessed, on ${engine}`, () => {
    let stack: TestStack;
    let folder: string;
    let mailboxFile: string;
    const clock = { now: Date.now() };

    const verify = (body: Record<string, unknown>, from: string) => authCall(stack, 'POST', '/verify', { body, from });
    const statuses = (answers: AuthAnswer[]) => answers.map((a) => a.status);

    /** A confirmed user with an outstanding recovery code, and that code. */
    async function recoveryCode(email: string): Promise<string> {
      const asked = await authCall(stack, 'POST', '/recover', { body: { email } });
      expect(asked.status).toBe(200);
      return (await lastMail(mailboxFile, email, 'recovery')).email_otp;
    }

    async function newUser(email: string): Promise<void> {
      const { error } = await stack.service().auth.admin.createUser({ email, password: 'forgotten-42', email_confirm: true });
      expect(error).toBeNull();
    }

    beforeAll(async () => {
      folder = await mkdtemp(path.join(tmpdir(), 'one-time-codes-'));
      mailboxFile = path.join(folder, 'mail-outbox.jsonl');
      // Sign-up needs confirmation, and a new code may be asked for at once (the one-a-minute
      // e-mail interval is another defence, tested with the e-mail links).
      stack = await startTestStack({
        engine,
        allowSignup: true,
        auth: { clock: () => clock.now, mail: { mailboxFile, intervalSeconds: 0, autoconfirm: false } },
      });
    });
    afterAll(async () => {
      await stack?.stop();
      if (folder) await rm(folder, { recursive: true, force: true });
    });

    it('stops one address guessing a recovery code at the burst of 30, with GoTrue\'s 429, for every account', async () => {
      const email = 'guessed@example.com';
      await newUser(email);
      const right = await recoveryCode(email);
      const attacker = address(1, 0);
      const answers: AuthAnswer[] = [];
      for (let i = 0; i < 40; i += 1) answers.push(await verify({ type: 'recovery', email, token: wrongCode(right, i) }, attacker));
      expect(statuses(answers)).toEqual([...Array<number>(burst).fill(403), ...Array<number>(10).fill(429)]);
      expect(answers[0]?.body).toEqual(invalidCode);
      expect(answers[burst]?.body).toEqual(rateLimited);
      expect(answers[burst]?.headers['retry-after']).toBe('10');
      // The address is held back whichever account it tries next, and through supabase-js too.
      expect(await verify({ type: 'recovery', email: 'manager@example.com', token: '123456' }, attacker)).toMatchObject({ status: 429, body: rateLimited });
      const viaClient = await authCall(stack, 'GET', `/verify?type=recovery&token=${'a'.repeat(56)}`, { from: attacker });
      expect(viaClient).toMatchObject({ status: 429, body: rateLimited });
      // Another address is not held back by it.
      expect(await verify({ type: 'recovery', email: 'manager@example.com', token: '123456' }, address(1, 1))).toMatchObject({ status: 403, body: invalidCode });
    });

    it('refills an address at 360 an hour (one every 10 s), never beyond the burst', async () => {
      const attacker = address(2, 0);
      const tries = async (n: number) => {
        const seen: number[] = [];
        for (let i = 0; i < n; i += 1) {
          seen.push((await verify({ type: 'recovery', email: `nobody${i}.${clock.now}@example.com`, token: '000000' }, attacker)).status);
        }
        return seen;
      };
      expect((await tries(burst + 1)).filter((s) => s === 429)).toHaveLength(1);
      clock.now += 9_000;
      expect(await tries(1)).toEqual([429]);
      clock.now += 1_000;
      expect(await tries(2)).toEqual([403, 429]);
      clock.now += 60_000;
      expect(await tries(7)).toEqual([403, 403, 403, 403, 403, 403, 429]);
      clock.now += 2 * 3600_000;
      const afterTwoHours = await tries(burst + 1);
      expect(afterTwoHours.filter((s) => s === 403)).toHaveLength(burst);
      expect(afterTwoHours[burst]).toBe(429);
    });

    it('kills a code after 5 wrong tries from anywhere: the right code then fails, and a fresh code recovers the account', async () => {
      const email = 'owner@example.com';
      await newUser(email);
      // 4 wrong tries leave the code working.
      let right = await recoveryCode(email);
      for (let i = 0; i < 4; i += 1) {
        expect(await verify({ type: 'recovery', email, token: wrongCode(right, i) }, address(3, i))).toMatchObject({ status: 403, body: invalidCode });
      }
      const first = await verify({ type: 'recovery', email, token: right }, address(3, 10));
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ access_token: expect.any(String), user: { email } });

      // The 5th wrong try kills it, whichever addresses the tries came from.
      right = await recoveryCode(email);
      const link = (await lastMail(mailboxFile, email, 'recovery')).action_link;
      for (let i = 0; i < 5; i += 1) {
        expect(await verify({ type: 'recovery', email, token: wrongCode(right, i) }, address(3, 20 + i))).toMatchObject({ status: 403, body: invalidCode });
      }
      expect(await verify({ type: 'recovery', email, token: right }, address(3, 30))).toMatchObject({ status: 403, body: invalidCode });
      const viaLink = await fetch(link, { redirect: 'manual' });
      expect(new URLSearchParams(new URL(viaLink.headers.get('location') ?? 'http://x/').hash.slice(1)).get('error_code')).toBe('otp_expired');

      // The owner asks for a new code, which works (the wrong tries were forgotten with the dead code).
      right = await recoveryCode(email);
      expect(await verify({ type: 'recovery', email, token: wrongCode(right, 0) }, address(3, 40))).toMatchObject({ status: 403 });
      const recovered = await verify({ type: 'recovery', email, token: right }, address(3, 41));
      expect(recovered.status).toBe(200);
      const changed = await authCall(stack, 'PUT', '/user', { body: { password: 'remembered-43' }, token: String(recovered.body.access_token) });
      expect(changed.status).toBe(200);
    });

    it('checks no more than 5 codes of a burst of concurrent guesses', async () => {
      // Each try is reserved before its check. The 26 requests are written at once on
      // connections opened beforehand, so on PostgreSQL all are in flight before any check
      // ends (PGlite, in this process, serves them one after another): the right code,
      // written last, is the 26th try and is refused without being checked.
      const email = 'rushed@example.com';
      await newUser(email);
      const right = await recoveryCode(email);
      const bodies = Array.from({ length: 25 }, (_, i) => ({ type: 'recovery', email, token: wrongCode(right, i) }));
      bodies.push({ type: 'recovery', email, token: right });
      const answers = await verifyAtOnce(stack, bodies.map((body, i) => ({ body, from: address(200, i) })));
      expect(answers).toEqual(Array<number>(26).fill(403));
      expect(await verify({ type: 'recovery', email, token: right }, address(200, 30))).toMatchObject({ status: 403, body: invalidCode });
    });

    it('kills sign-up, invite, magic-link and e-mail change codes after 5 wrong tries too', async () => {
      const kinds: Array<{ name: string; email: string; type: string; issue: () => Promise<string> }> = [
        {
          name: 'sign-up',
          email: 'walk-in@example.com',
          type: 'signup',
          issue: async () => {
            expect((await authCall(stack, 'POST', '/signup', { body: { email: 'walk-in@example.com', password: 'tyre-42-rim' } })).status).toBe(200);
            return (await lastMail(mailboxFile, 'walk-in@example.com', 'signup')).email_otp;
          },
        },
        {
          name: 'invite',
          email: 'invitee@example.com',
          type: 'invite',
          issue: async () => {
            expect((await stack.service().auth.admin.inviteUserByEmail('invitee@example.com')).error).toBeNull();
            return (await lastMail(mailboxFile, 'invitee@example.com', 'invite')).email_otp;
          },
        },
        {
          name: 'magic link',
          email: 'other@example.com',
          type: 'magiclink',
          issue: async () => {
            const { data, error } = await stack.service().auth.admin.generateLink({ type: 'magiclink', email: 'other@example.com' });
            expect(error).toBeNull();
            return data.properties?.email_otp ?? '';
          },
        },
        {
          name: 'e-mail change',
          email: 'manager.new@example.com',
          type: 'email_change',
          issue: async () => {
            const manager = await stack.signIn('manager@example.com');
            expect((await manager.auth.updateUser({ email: 'manager.new@example.com' })).error).toBeNull();
            return (await lastMail(mailboxFile, 'manager.new@example.com', 'email_change_new')).email_otp;
          },
        },
      ];
      let n = 0;
      for (const kind of kinds) {
        const right = await kind.issue();
        expect(right, kind.name).toMatch(/^\d{6}$/);
        for (let i = 0; i < 5; i += 1) {
          n += 1;
          expect((await verify({ type: kind.type, email: kind.email, token: wrongCode(right, i) }, address(4, n))).status, kind.name).toBe(403);
        }
        n += 1;
        expect(await verify({ type: kind.type, email: kind.email, token: right }, address(4, n)), kind.name).toMatchObject({ status: 403, body: invalidCode });
      }
      const { rows } = await stack.database.query<{ email: string; confirmed: boolean }>(
        `select email, email_confirmed_at is not null as confirmed from auth.users where email in ('walk-in@example.com', 'invitee@example.com') order by email`,
      );
      expect(rows).toEqual([{ email: 'invitee@example.com', confirmed: false }, { email: 'walk-in@example.com', confirmed: false }]);
      const { rows: manager } = await stack.database.query<{ email: string }>('select email from auth.users where id = $1', [demo.managerId]);
      expect(manager).toEqual([{ email: 'manager@example.com' }]);
    });

    it('throttles guesses at one account spread over many addresses, and answers an unknown account exactly alike', async () => {
      const known = 'spread@example.com';
      await newUser(known);
      const right = await recoveryCode(known);
      const guess = async (email: string, block: number) => {
        const answers: AuthAnswer[] = [];
        for (let i = 0; i < burst + 3; i += 1) answers.push(await verify({ type: 'recovery', email, token: wrongCode(right, i) }, address(block, i)));
        return answers;
      };
      const forKnown = await guess(known, 5);
      const forUnknown = await guess('nobody.here@example.com', 6);
      const expected = [...Array<number>(burst).fill(403), 429, 429, 429];
      expect(statuses(forKnown)).toEqual(expected);
      expect(statuses(forUnknown)).toEqual(expected);
      expect(forKnown.map((a) => a.body)).toEqual(forUnknown.map((a) => a.body));
      expect(forKnown.map((a) => a.headers['retry-after'])).toEqual(forUnknown.map((a) => a.headers['retry-after']));
    });

    it('takes as long to refuse a wrong code as an unknown account (a paired sign test over 60 pairs)', async () => {
      // Like with like, in pairs sent back to back (in alternating order): each account, known or
      // not, through all 5 tries of a code (the 5th voids the address's codes, with the same
      // statement whether or not anyone has it). The check takes a millisecond or two, less than
      // a shared machine's noise, so the test counts which of each pair was slower: with the
      // same work on both sides, about half; a step that only one side takes would make it lopsided.
      const known = 'timed@example.com';
      await newUser(known);
      let n = 0;
      const timed = async (email: string, token: string) => {
        n += 1;
        const started = performance.now();
        const answer = await verify({ type: 'recovery', email, token }, address(7, n));
        expect(answer).toMatchObject({ status: 403, body: invalidCode });
        return performance.now() - started;
      };
      await timed('warm-up@example.com', '000000');
      let unknownSlower = 0;
      let pairs = 0;
      for (let round = 0; round < 12; round += 1) {
        clock.now += 3600_000; // each account's bucket full again: this measures the check, not the limit
        const right = await recoveryCode(known);
        for (let i = 0; i < 5; i += 1) {
          const token = wrongCode(right, i);
          const unknown = `unknown${round}@example.com`;
          const [forKnown, forUnknown] = pairs % 2 === 0
            ? [await timed(known, token), await timed(unknown, token)]
            : [await timed(unknown, token), await timed(known, token)].reverse() as [number, number];
          if (forUnknown > forKnown) unknownSlower += 1;
          pairs += 1;
        }
      }
      expect(pairs).toBe(60);
      expect(unknownSlower).toBeGreaterThanOrEqual(15);
      expect(unknownSlower).toBeLessThanOrEqual(45);
    });

    it('keeps a link\'s token out of reach of someone who knows the address and guesses the code', async () => {
      // GoTrue's token is SHA-224 of address and code: anyone can compute it for each of the
      // million codes, and a token names no account to hold to few tries. Here it is keyed
      // with a server secret, so the token form gives a guesser nothing the code form does not.
      const email = 'linked@example.com';
      await newUser(email);
      const right = await recoveryCode(email);
      const computed = createHash('sha224').update(`${email}${right}`).digest('hex');
      const guessed = await verify({ type: 'recovery', token_hash: computed }, address(8, 0));
      expect(guessed).toMatchObject({ status: 403, body: { code: 'otp_expired', message: 'Email link is invalid or has expired' } });
      // The e-mail's own link and the typed code still work.
      const mail = await lastMail(mailboxFile, email, 'recovery');
      const token = new URL(mail.action_link).searchParams.get('token') ?? '';
      expect(token).toMatch(/^[0-9a-f]{56}$/);
      expect((await verify({ type: 'recovery', token_hash: token }, address(8, 1))).status).toBe(200);
      const again = await recoveryCode(email);
      expect((await verify({ type: 'recovery', email, token: again }, address(8, 2))).status).toBe(200);
    });

    it('counts a client by its connection, whatever address its forwarding headers claim', async () => {
      // No proxy is configured: X-Forwarded-For and its kin are the client's own words.
      const from = address(60, 0);
      const spoofed = (i: number) => new Promise<number>((resolve, reject) => {
        const url = new URL(`${stack.url}/auth/v1/verify`);
        const payload = JSON.stringify({ type: 'recovery', email: `spoof${i}@example.com`, token: '000000' });
        const claimed = `10.${i}.0.1`;
        const req = request({
          host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from,
          headers: {
            apikey: stack.keys.anonKey, 'Content-Type': 'application/json', 'X-Forwarded-For': claimed, 'X-Real-IP': claimed,
            Forwarded: `for=${claimed}`, 'CF-Connecting-IP': claimed, 'True-Client-IP': claimed, 'Fly-Client-IP': claimed,
          },
        }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(payload);
      });
      const seen: number[] = [];
      for (let i = 0; i <= burst; i += 1) seen.push(await spoofed(i));
      expect(seen).toEqual([...Array<number>(burst).fill(403), 429]);
    });

    it('keeps an invite code to 5 wrong tries however many other codes are sent to its address meanwhile', async () => {
      // A recovery e-mail (anyone may ask for one) replaces the recovery code, not the
      // invitation's: the invitation's code must not get 5 fresh tries with each one.
      const email = 'late.joiner@example.com';
      expect((await stack.service().auth.admin.inviteUserByEmail(email)).error).toBeNull();
      const right = (await lastMail(mailboxFile, email, 'invite')).email_otp;
      let n = 0;
      for (let round = 0; round < 3; round += 1) {
        expect((await authCall(stack, 'POST', '/recover', { body: { email } })).status).toBe(200);
        for (let i = 0; i < 4; i += 1) {
          n += 1;
          expect((await verify({ type: 'invite', email, token: wrongCode(right, n) }, address(9, n))).status).toBe(403);
        }
      }
      expect(await verify({ type: 'invite', email, token: right }, address(9, 100))).toMatchObject({ status: 403, body: invalidCode });
      const { rows } = await stack.database.query<{ confirmed: boolean }>(
        'select email_confirmed_at is not null as confirmed from auth.users where email = $1', [email],
      );
      expect(rows).toEqual([{ confirmed: false }]);
      // The invitee asks for a fresh code after the void, and it works.
      const fresh = await recoveryCode(email);
      expect((await verify({ type: 'recovery', email, token: fresh }, address(9, 101))).status).toBe(200);
    });

    it('throttles every way of presenting a code: GET link, POST token_hash and POST code, for every type', async () => {
      const forms: Array<{ name: string; send: (from: string) => Promise<AuthAnswer> }> = [];
      for (const type of ['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email']) {
        forms.push({ name: `GET ${type} link`, send: (from) => authCall(stack, 'GET', `/verify?type=${type}&token=${'b'.repeat(56)}&redirect_to=x`, { from }) });
        forms.push({ name: `POST ${type} token_hash`, send: (from) => verify({ type, token_hash: 'c'.repeat(56) }, from) });
        forms.push({ name: `POST ${type} code`, send: (from) => verify({ type, email: `form.${type}@example.com`, token: '000000' }, from) });
      }
      let block = 10;
      for (const form of forms) {
        block += 1;
        const from = address(block, 0);
        const seen: number[] = [];
        for (let i = 0; i < burst; i += 1) seen.push((await form.send(from)).status);
        expect(seen.filter((s) => s === 429), form.name).toEqual([]);
        expect(await form.send(from), form.name).toMatchObject({ status: 429, body: rateLimited });
      }
    });
  });

  describe(`one-time codes when more addresses are typed than are tracked, on ${engine}`, () => {
    let stack: TestStack;
    let folder: string;
    let mailboxFile: string;
    const tracked = 20;
    beforeAll(async () => {
      folder = await mkdtemp(path.join(tmpdir(), 'one-time-codes-tracked-'));
      mailboxFile = path.join(folder, 'mail-outbox.jsonl');
      stack = await startTestStack({ engine, auth: { codes: { tracked }, mail: { mailboxFile, intervalSeconds: 0 } } });
    });
    afterAll(async () => {
      await stack?.stop();
      if (folder) await rm(folder, { recursive: true, force: true });
    });

    it('voids the codes of an address whose wrong tries are forgotten to make room, so a flood of other addresses buys no tries', async () => {
      const email = 'flooded@example.com';
      expect((await stack.service().auth.admin.createUser({ email, password: 'forgotten-42', email_confirm: true })).error).toBeNull();
      expect((await authCall(stack, 'POST', '/recover', { body: { email } })).status).toBe(200);
      const right = (await lastMail(mailboxFile, email, 'recovery')).email_otp;
      const verify = (body: Record<string, unknown>, from: string) => authCall(stack, 'POST', '/verify', { body, from });
      for (let i = 0; i < 4; i += 1) expect((await verify({ type: 'recovery', email, token: wrongCode(right, i) }, address(50, i))).status).toBe(403);
      // More unknown addresses than are tracked, each from its own client address.
      for (let i = 0; i <= tracked; i += 1) {
        expect((await verify({ type: 'recovery', email: `filler${i}@example.com`, token: '000000' }, address(51, i))).status).toBe(403);
      }
      for (let i = 4; i < 8; i += 1) expect((await verify({ type: 'recovery', email, token: wrongCode(right, i) }, address(50, i))).status).toBe(403);
      expect(await verify({ type: 'recovery', email, token: right }, address(50, 20))).toMatchObject({ status: 403, body: invalidCode });
    });
  });
}
