import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../support/test-databases.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { ids, startConformanceStack } from './conformance-stack.ts';

// Writes as PostgREST 12 answers them (preferences.rst, tables_views.rst, Response.hs):
// counts on insert, update, upsert and delete, max-affected, tx=rollback (with db-tx-end
// commit-allow-override), strict handling, key-only upserts and limited updates. Each
// test works on its own task ids; expected figures are counted by hand.
for (const engine of engines) {
  describe(`PostgREST writes on ${engine}`, () => {
    let stack: ConformanceStack;
    let db: SupabaseClient;
    const stored = async (from: number, to: number) =>
      (await stack.sql<{ id: number }>('select id from conformance.tasks where id between $1 and $2 order by id', [from, to])).map((r) => r.id);

    beforeAll(async () => {
      stack = await startConformanceStack(engine, { rest: { txEnd: 'commit-allow-override' } });
      db = stack.service();
    });
    afterAll(() => stack?.stop());

    it('counts the rows an insert, update, upsert and delete wrote', async () => {
      const inserted = await db.from('tasks').insert([{ id: 1, title: 'a' }, { id: 2, title: 'b' }], { count: 'exact' });
      expect(inserted).toMatchObject({ error: null, status: 201, count: 2 });
      const updated = await db.from('tasks').update({ done: true }, { count: 'exact' }).in('id', [1, 2]).select('id, done');
      expect(updated).toMatchObject({ status: 200, count: 2, data: [{ id: 1, done: true }, { id: 2, done: true }] });
      const none = await db.from('tasks').update({ done: true }, { count: 'exact' }).eq('id', 999);
      expect(none).toMatchObject({ status: 204, count: 0 });
      const upserted = await db.from('tasks').upsert([{ id: 2, title: 'b2' }, { id: 3, title: 'c' }], { count: 'exact' });
      expect(upserted).toMatchObject({ status: 201, count: 2 });
      const deleted = await db.from('tasks').delete({ count: 'estimated' }).in('id', [1, 2, 3]);
      expect(deleted).toMatchObject({ status: 204, count: 3 });
      expect(await stored(1, 3)).toEqual([]);
    });

    it('says the written rows in Content-Range as PostgREST does, and * for a planned count it does not make', async () => {
      const post = await stack.rest('tasks', { method: 'POST', body: JSON.stringify([{ id: 11, title: 'x' }, { id: 12, title: 'y' }]), headers: { Prefer: 'count=exact', 'Content-Type': 'application/json' } });
      expect([post.status, post.headers.get('content-range'), post.headers.get('preference-applied')]).toEqual([201, '*/2', 'count=exact']);
      const patch = await stack.rest('tasks?id=in.(11,12)', { method: 'PATCH', body: '{"done": true}', headers: { Prefer: 'count=exact', 'Content-Type': 'application/json' } });
      expect([patch.status, patch.headers.get('content-range')]).toEqual([204, '0-1/2']);
      const planned = await stack.rest('tasks?id=eq.11', { method: 'DELETE', headers: { Prefer: 'count=planned' } });
      expect([planned.status, planned.headers.get('content-range')]).toEqual([204, '*/*']);
    });

    it('answers an upsert that only updated 200, and one that inserted 201', async () => {
      await db.from('tasks').insert({ id: 21, title: 'first' });
      const merged = await db.from('tasks').upsert({ id: 21, title: 'second' }).select('title');
      expect(merged).toMatchObject({ status: 200, data: [{ title: 'second' }] });
      const mixed = await db.from('tasks').upsert([{ id: 21, title: 'third' }, { id: 22, title: 'new' }]).select('id');
      expect(mixed.status).toBe(201);
    });

    it('returns the row of a key-only upsert, and nothing for an ignored duplicate', async () => {
      const first = await db.from('tags').upsert({ name: 'silent' }).select();
      expect(first).toMatchObject({ status: 201, data: [{ name: 'silent' }] });
      const again = await db.from('tags').upsert({ name: 'silent' }).select();
      expect(again).toMatchObject({ status: 200, data: [{ name: 'silent' }] });
      const ignored = await db.from('tags').upsert({ name: 'silent' }, { ignoreDuplicates: true }).select();
      expect(ignored).toMatchObject({ status: 201, data: [] });
      const fresh = await db.from('tags').upsert([{ name: 'silent' }, { name: 'loud' }], { ignoreDuplicates: true }).select();
      expect(fresh).toMatchObject({ status: 201, data: [{ name: 'loud' }] });
    });

    it('refuses with PGRST124 and rolls back an update or delete touching more rows than max-affected', async () => {
      await db.from('tasks').insert([{ id: 31, title: 'a' }, { id: 32, title: 'b' }, { id: 33, title: 'c' }]);
      const deleted = await db.from('tasks').delete().gte('id', 31).lte('id', 33).maxAffected(2);
      expect(deleted).toMatchObject({ status: 400, error: { code: 'PGRST124', message: 'Query result exceeds max-affected preference constraint', details: 'The query affects 3 rows' } });
      expect(await stored(31, 33)).toEqual([31, 32, 33]);
      const updated = await db.from('tasks').update({ done: true }).gte('id', 31).lte('id', 32).maxAffected(2);
      expect(updated).toMatchObject({ status: 204, error: null });
      // Without handling=strict the preference is ignored, as PostgREST does.
      const lenient = await stack.rest('tasks?id=gte.31&id=lte.33', { method: 'DELETE', headers: { Prefer: 'max-affected=1' } });
      expect(lenient.status).toBe(204);
      expect(await stored(31, 33)).toEqual([]);
    });

    it('refuses with PGRST124 an rpc returning more rows than max-affected, and keeps nothing it did', async () => {
      const refused = await db.rpc('add_tasks', { p_titles: ['one', 'two', 'three'] }).maxAffected(2);
      expect(refused).toMatchObject({ status: 400, error: { code: 'PGRST124', details: 'The query affects 3 rows' } });
      expect(await stored(1001, 1100)).toEqual([]);
    });

    it('rolls back with tx=rollback and still answers with the rows it would have written', async () => {
      const dry = await db.from('tasks').insert({ id: 41, title: 'dry run' }).select('id, title').rollback();
      expect(dry).toMatchObject({ status: 201, data: [{ id: 41, title: 'dry run' }] });
      expect(await stored(41, 41)).toEqual([]);
      const response = await stack.rest('tasks?select=id', {
        method: 'POST', body: '{"id": 42, "title": "strict dry run"}',
        headers: { Prefer: 'handling=strict, tx=rollback, return=representation', 'Content-Type': 'application/json' },
      });
      expect([response.status, response.headers.get('preference-applied')]).toEqual([201, 'return=representation, tx=rollback, handling=strict']);
      expect(await response.json()).toEqual([{ id: 42 }]);
      const rpc = await db.rpc('add_tasks', { p_titles: ['ghost'] }).select('title').rollback();
      expect(rpc).toMatchObject({ status: 200, data: [{ title: 'ghost' }] });
      expect(await stored(41, 1100)).toEqual([]);
    });

    it('refuses unknown preferences with handling=strict (PGRST122), and ignores them otherwise', async () => {
      const strict = await stack.rest('tasks?select=id', { headers: { Prefer: 'handling=strict, foo, bar' } });
      expect(strict.status).toBe(400);
      expect(await strict.json()).toEqual({ code: 'PGRST122', message: 'Invalid preferences given with handling=strict', details: 'Invalid preferences: foo, bar', hint: null });
      const lenient = await stack.rest('tasks?select=id', { headers: { Prefer: 'handling=lenient, foo, bar' } });
      expect([lenient.status, lenient.headers.get('preference-applied')]).toEqual([200, 'handling=lenient']);
    });

    it('limits an update or delete to the first rows of an order, and refuses a limit without one', async () => {
      await db.from('tasks').insert([{ id: 51, title: 'a' }, { id: 52, title: 'b' }, { id: 53, title: 'c' }]);
      const limited = await db.from('tasks').update({ done: true }).gte('id', 51).lte('id', 53).order('id', { ascending: false }).limit(2).select('id');
      expect(limited.status).toBe(200);
      expect(ids(limited.data)).toEqual([52, 53]);
      const unordered = await stack.rest('tasks?id=gte.51&limit=1', { method: 'DELETE' });
      expect(unordered.status).toBe(400);
      expect(await unordered.json()).toMatchObject({ code: 'PGRST109' });
      const deleted = await db.from('tasks').delete().gte('id', 51).order('id').limit(1).select('id');
      expect(deleted.data).toEqual([{ id: 51 }]);
      expect(await stored(51, 53)).toEqual([52, 53]);
    });
  });
}
