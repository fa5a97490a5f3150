import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../support/test-databases.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { startConformanceStack } from './conformance-stack.ts';

// Functions as RPC (functions.rst): scalar, set-returning and single-row functions, read
// like tables with select, filters, order, limit, embeds and counts, by POST and GET.
// Films of the fixture: 1 Workers... 1895 7.1, 2 The Dickson... 1894 6.4,
// 3 The Haunted Castle 1896 6.8, 4 A Trip to the Moon 1902 8.1.
const titles = (rows: unknown) => (rows as Array<{ title: string }>).map((r) => r.title);

for (const engine of engines) {
  describe(`PostgREST rpc on ${engine}`, () => {
    let stack: ConformanceStack;
    let db: SupabaseClient;

    beforeAll(async () => {
      stack = await startConformanceStack(engine);
      db = stack.service();
    });
    afterAll(() => stack?.stop());

    it('calls a scalar function by POST and by GET', async () => {
      expect(await db.rpc('add_them', { a: 1, b: 2 })).toMatchObject({ status: 200, data: 3 });
      expect(await db.rpc('add_them', { a: 40, b: 2 }, { get: true })).toMatchObject({ status: 200, data: 42 });
      const raw = await stack.rest('rpc/add_them?a=1&b=2');
      expect(await raw.json()).toBe(3);
    });

    it('filters, orders and limits the rows of a set-returning function', async () => {
      const filtered = await db.rpc('getallfilms').select('title').gt('rating', 7).order('title', { ascending: false });
      expect(titles(filtered.data)).toEqual(['Workers Leaving The Lumière Factory In Lyon', 'A Trip to the Moon']);
      const limited = await db.rpc('getallfilms').select('id').order('id').limit(2);
      expect(limited.data).toEqual([{ id: 1 }, { id: 2 }]);
      const viaGet = await db.rpc('films_since', { p_year: 1895 }, { get: true }).lt('year', 1900).order('year');
      expect(viaGet.data).toEqual([{ title: 'Workers Leaving The Lumière Factory In Lyon', year: 1895 }, { title: 'The Haunted Castle', year: 1896 }]);
    });

    it('counts the rows of a function call, and pages them with Content-Range', async () => {
      const counted = await db.rpc('getallfilms', {}, { count: 'exact' }).select('id').gte('year', 1896);
      expect(counted).toMatchObject({ status: 200, count: 2 });
      const head = await db.rpc('getallfilms', {}, { count: 'exact', head: true });
      expect(head).toMatchObject({ count: 4, data: null });
      const paged = await db.rpc('getallfilms', {}, { count: 'exact' }).select('id').order('id').range(1, 2);
      expect(paged).toMatchObject({ status: 206, count: 4, data: [{ id: 2 }, { id: 3 }] });
    });

    it('embeds resources related to the table type a function returns', async () => {
      const { data, error } = await db.rpc('getallfilms').select('title, directors(id, last_name)').like('title', '*Workers*');
      expect(error).toBeNull();
      expect(data).toEqual([{ title: 'Workers Leaving The Lumière Factory In Lyon', directors: { id: 2, last_name: 'Lumière' } }]);
    });

    it('returns TABLE(...) columns, sets of scalars, one row as an object, and nothing for void', async () => {
      const table = await db.rpc('films_since', { p_year: 1896 }).select('title').order('year');
      expect(titles(table.data)).toEqual(['The Haunted Castle', 'A Trip to the Moon']);
      const scalars = await db.rpc('film_titles');
      expect(scalars.data).toEqual(['Workers Leaving The Lumière Factory In Lyon', 'The Dickson Experimental Sound Film', 'The Haunted Castle', 'A Trip to the Moon']);
      const one = await db.rpc('one_film', { p_id: 3 }).select('title, year');
      expect(one).toMatchObject({ status: 200, data: { title: 'The Haunted Castle', year: 1896 } });
      const none = await db.rpc('forget_tasks');
      expect(none).toMatchObject({ status: 204, data: null, error: null });
    });

    it('names a missing function and the arguments it looked for (404 PGRST202)', async () => {
      const missing = await db.rpc('nope');
      expect(missing).toMatchObject({ status: 404, error: { code: 'PGRST202', message: 'Could not find the function conformance.nope without parameters in the schema cache' } });
      const wrongArgs = await db.rpc('add_them', { x: 1 });
      expect(wrongArgs.error).toMatchObject({ code: 'PGRST202', message: 'Could not find the function conformance.add_them(x) in the schema cache' });
    });

    it('refuses other methods (405 PGRST101) and writes in a GET call (405)', async () => {
      const patch = await stack.rest('rpc/add_them', { method: 'PATCH', body: '{"a": 1, "b": 2}', headers: { 'Content-Type': 'application/json' } });
      expect(patch.status).toBe(405);
      expect(await patch.json()).toMatchObject({ code: 'PGRST101', message: 'Cannot use the PATCH method on RPC' });
      const readOnly = await db.rpc('add_tasks', { p_titles: '{a}' }, { get: true });
      expect(readOnly).toMatchObject({ status: 405, error: { code: '25006' } });
    });
  });
}
