/**
 * Numbers no screen of the product would send, sent raw to the embedded backend's REST
 * API and to push_changes: refused with PostgREST's shape and status, and nothing stored.
 * A JSON number JavaScript cannot carry exactly (1e309, 20 digits) is refused by the
 * backend itself; NaN, infinities and out-of-range values by the database's field limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../support/demo.ts';
import type { TestStack } from '../../support/local-stack.ts';
import { startTestStack } from '../../support/local-stack.ts';
import { engines } from '../../support/test-databases.ts';

// 2031-05-06 is a Tuesday (ISO day 2).
const keyJson = `"store_id":"${demo.storeA}","entry_date":"2031-05-06","year":2031,"month":5,"day_of_week_iso":2,"row_identifier":"CP","metric_type":"hours"`;

for (const engine of engines) {
  describe(`bad numbers sent to the backend on ${engine}`, () => {
    let stack: TestStack;
    let token: string;
    const stored = async () =>
      (await stack.database.query<{ n: number; total: string | null }>(`select count(*)::int as n, sum(value)::text as total from daily_inputs where entry_date = '2031-05-06'`)).rows[0];
    const send = (path: string, method: string, body: string) =>
      fetch(`${stack.url}/rest/v1/${path}`, {
        method,
        headers: { apikey: stack.keys.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Prefer: 'return=representation' },
        body,
      });

    beforeAll(async () => {
      stack = await startTestStack({ engine });
      const manager = await stack.signIn('manager@example.com');
      token = (await manager.auth.getSession()).data.session?.access_token ?? '';
    });
    afterAll(() => stack?.stop());

    const rawNumbers: Array<[string, string, RegExp]> = [
      ['1e309', '1e309', /beyond what a JSON number can carry/],
      ['-1e309', '-1e309', /beyond what a JSON number can carry/],
      ['a 20-digit number', '12345678901234567890', /more digits than can be kept exactly; it would be stored as 12345678901234567000/],
      ['a number too small to be told from 0', '1e-400', /more digits than can be kept exactly; it would be stored as 0/],
    ];

    it.each(rawNumbers)('refuses %s in an insert body with a 400 that names it, storing nothing', async (_name, literal, detail) => {
      const before = await stored();
      const response = await send('daily_inputs', 'POST', `{${keyJson},"value":${literal}}`);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: string; message: string; details: string };
      expect(body).toMatchObject({ code: 'PGRST102', message: 'Invalid number in the request body' });
      expect(body.details).toMatch(detail);
      expect(body.details).toContain(literal);
      expect(await stored()).toEqual(before);
    });

    it.each(rawNumbers)('refuses %s in push_changes rows the same way', async (_name, literal) => {
      const before = await stored();
      const response = await send('rpc/push_changes', 'POST', `{"p_table":"daily_inputs","p_rows":[{${keyJson},"value":12},{${keyJson.replace('"CP"', '"W"')},"value":${literal}}]}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'PGRST102', message: 'Invalid number in the request body' });
      expect(await stored()).toEqual(before);
    });

    it('refuses 1e309 in a PATCH body', async () => {
      const response = await send(`daily_inputs?entry_date=eq.2031-05-06`, 'PATCH', '{"value":1e309}');
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'PGRST102' });
    });

    const refusedByTheDatabase: Array<[string, string, string, RegExp]> = [
      ['NaN', '"NaN"', '23514', /daily_inputs_value_in_range/],
      ['-1e9', '-1e9', '23514', /daily_inputs_value_in_range/],
      ['negative hours', '-5', '23514', /daily_inputs_value_in_range/],
      ['Infinity', '"Infinity"', '22003', /numeric field overflow/],
      ['20 digits sent as a string', '"12345678901234567890"', '22003', /numeric field overflow/],
    ];

    it.each(refusedByTheDatabase)('answers %s with a 400 naming the rule it breaks, storing nothing', async (_name, value, code, message) => {
      const before = await stored();
      const insert = await send('daily_inputs', 'POST', `{${keyJson},"value":${value}}`);
      expect(insert.status).toBe(400);
      expect(await insert.json()).toMatchObject({ code, message: expect.stringMatching(message) });
      const push = await send('rpc/push_changes', 'POST', `{"p_table":"daily_inputs","p_rows":[{${keyJson},"value":${value}}]}`);
      expect(push.status).toBe(400);
      expect(await push.json()).toMatchObject({ code, message: expect.stringMatching(message) });
      expect(await stored()).toEqual(before);
    });

    it('still takes good numbers, and long digit strings inside JSON strings', async () => {
      const day = await send('daily_inputs', 'POST', `{${keyJson},"value":12.5}`);
      expect(day.status).toBe(201);
      expect(await stored()).toEqual({ n: 1, total: '12.50' });
      const advisor = await send('front_end_team_advisors', 'POST', `{"store_id":"${demo.storeA}","advisor_name":"Digits 12345678901234567890","employee_id":"12345678901234567890"}`);
      expect(advisor.status).toBe(201);
      expect(await advisor.json()).toMatchObject([{ employee_id: '12345678901234567890' }]);
    });
  });
}
