import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../support/test-databases.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { startConformanceStack } from './conformance-stack.ts';

// Response formats and schemas: CSV (Accept: text/csv), the execution plan (explain(),
// with db-plan-enabled on), and schema selection by Accept-Profile / Content-Profile
// (schemas.rst). Expected values are written by hand from fixture.sql.
for (const engine of engines) {
  describe(`PostgREST media types and profiles on ${engine}`, () => {
    let stack: ConformanceStack;

    beforeAll(async () => {
      stack = await startConformanceStack(engine, { rest: { planEnabled: true } });
    });
    afterAll(() => stack?.stop());

    it('answers CSV with a header and the rows as Postgres writes records', async () => {
      const db = stack.service();
      const { data, error, status } = await db.from('films').select('id, title, year').lte('id', 2).order('id').csv();
      expect(error).toBeNull();
      expect(status).toBe(200);
      expect(data).toBe('id,title,year\n1,"Workers Leaving The Lumière Factory In Lyon",1895\n2,"The Dickson Experimental Sound Film",1894');
      const response = await stack.rest('directors?select=id,last_name&order=id', { headers: { Accept: 'text/csv' } });
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(await response.text()).toBe('id,last_name\n1,Dickson\n2,Lumière\n3,Méliès');
    });

    it('returns the execution plan as text or JSON, running the query with analyze', async () => {
      const db = stack.service();
      const text = await db.from('films').select('title').eq('id', 1).explain();
      expect(text.error).toBeNull();
      expect(typeof text.data).toBe('string');
      expect(String(text.data)).toMatch(/Scan/);
      expect(String(text.data)).not.toMatch(/actual time/);
      const analyzed = await db.from('films').select('title').eq('id', 1).explain({ analyze: true });
      expect(String(analyzed.data)).toMatch(/actual time=/);
      const json = await db.from('films').select('title').explain({ format: 'json' });
      expect(Array.isArray(json.data)).toBe(true);
      expect((json.data as unknown as Array<{ Plan: { 'Node Type': string } }>)[0]?.Plan['Node Type']).toBeTypeOf('string');
      const response = await stack.rest('films?select=id', { headers: { Accept: 'application/vnd.pgrst.plan+text; for="application/json"' } });
      expect(response.headers.get('content-type')).toBe('application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8');
    });

    it('answers 406 PGRST107 for a media type it does not produce', async () => {
      const response = await stack.rest('films?select=id', { headers: { Accept: 'application/xml' } });
      expect(response.status).toBe(406);
      expect(await response.json()).toMatchObject({ code: 'PGRST107', message: 'None of these media types are available: application/xml' });
    });

    it('reads the schema Accept-Profile names, and says which in Content-Profile', async () => {
      const second = await stack.service('conformance_b').from('items').select('name').order('id');
      expect(second.data).toEqual([{ name: 'second schema' }, { name: 'second schema too' }]);
      const first = await stack.service('conformance').from('items').select('name');
      expect(first.data).toEqual([{ name: 'first schema' }]);
      const response = await stack.rest('items?select=name', { headers: { 'Accept-Profile': 'conformance_b' } });
      expect(response.headers.get('content-profile')).toBe('conformance_b');
      // Without a profile the first exposed schema (public) is meant, which has no items.
      const unprofiled = await fetch(`${stack.url}/rest/v1/items`, { headers: { apikey: stack.keys.serviceRoleKey } });
      expect(unprofiled.status).toBe(404);
      expect(await unprofiled.json()).toMatchObject({ code: 'PGRST205' });
    });

    it('writes into the schema Content-Profile names, and calls its functions', async () => {
      const written = await stack.service('conformance_b').from('items').insert({ id: 3, name: 'written by profile' }).select('id');
      expect(written).toMatchObject({ status: 201, data: [{ id: 3 }] });
      expect(await stack.sql('select name from conformance_b.items where id = 3')).toEqual([{ name: 'written by profile' }]);
      expect(await stack.sql('select count(*)::int as n from conformance.items')).toEqual([{ n: 1 }]);
      const sum = await stack.service('conformance').rpc('add_them', { a: 1, b: 2 });
      expect(sum).toMatchObject({ error: null, data: 3 });
    });

    it('refuses a schema it does not expose with 406 PGRST106', async () => {
      const refused = await stack.service('auth').from('users').select('id');
      expect(refused.status).toBe(406);
      expect(refused.error).toMatchObject({ code: 'PGRST106', message: 'The schema must be one of the following: public, conformance, conformance_b' });
      const write = await stack.rest('items', { method: 'POST', body: '{"id": 9}', headers: { 'Content-Profile': 'private', 'Content-Type': 'application/json' } });
      expect(write.status).toBe(406);
    });
  });
}
