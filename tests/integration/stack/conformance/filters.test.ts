import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../support/test-databases.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { ids, startConformanceStack } from './conformance-stack.ts';

// Filters of PostgREST's "Operators" table (tables_views.rst) through the unmodified
// postgrest-js, on the fixture's rows. Expected ids are counted by hand from fixture.sql.
for (const engine of engines) {
  describe(`PostgREST filters on ${engine}`, () => {
    let stack: ConformanceStack;
    let db: SupabaseClient;

    beforeAll(async () => {
      stack = await startConformanceStack(engine);
      db = stack.service();
    });
    afterAll(() => stack?.stop());

    const found = async (query: PromiseLike<{ data: unknown; error: unknown }>) => {
      const { data, error } = await query;
      expect(error).toBeNull();
      return ids(data as Array<{ id: number }>);
    };

    it('applies the range operators sl, sr, nxr, nxl, adj and ov', async () => {
      const reservations = () => db.from('reservations').select('id');
      // A [1,5) B [5,10) C [10,20) D [3,8)
      expect(await found(reservations().rangeLt('during', '[10,20)'))).toEqual([1, 2, 4]);
      expect(await found(reservations().rangeGt('during', '[1,5)'))).toEqual([2, 3]);
      expect(await found(reservations().rangeLte('during', '[1,8)'))).toEqual([1, 4]);
      expect(await found(reservations().rangeGte('during', '[5,6)'))).toEqual([2, 3]);
      expect(await found(reservations().rangeAdjacent('during', '[10,20)'))).toEqual([2]);
      expect(await found(reservations().overlaps('during', '[4,6)'))).toEqual([1, 2, 4]);
      expect(await found(reservations().not('during', 'ov', '[4,6)'))).toEqual([3]);
      // In a logic tree, a range with a comma is quoted (url_grammar.rst).
      expect(await found(reservations().or('during.adj."[10,20)",during.cs."[16,17)"'))).toEqual([2, 3]);
    });

    it('overlaps arrays with ov and curly braces', async () => {
      expect(await found(db.from('people').select('id').overlaps('tags', ['a', 'c']))).toEqual([1, 2, 3]);
      expect(await found(db.from('people').select('id').contains('tags', ['b']))).toEqual([1, 2]);
    });

    it('searches text with fts, plfts, phfts and wfts, with a language', async () => {
      const search = () => db.from('tsearch').select('id');
      expect(await found(search().textSearch('my_tsv', 'cat', { config: 'english' }))).toEqual([1, 3]);
      expect(await found(search().textSearch('my_tsv', 'amusant', { config: 'french' }))).toEqual([2]);
      expect(await found(search().textSearch('my_tsv', 'rats ate', { type: 'plain', config: 'english' }))).toEqual([1, 4]);
      expect(await found(search().textSearch('my_tsv', 'rats ate', { type: 'phrase', config: 'english' }))).toEqual([4]);
      expect(await found(search().textSearch('my_tsv', 'cat -mat', { type: 'websearch', config: 'english' }))).toEqual([1]);
      expect(await found(search().not('my_tsv', 'fts(english)', 'cat'))).toEqual([2, 4]);
      // The documentation's own forms, as raw query strings.
      const raw = await stack.rest('tsearch?select=id&my_tsv=fts(french).amusant');
      expect(await raw.json()).toEqual([{ id: 2 }]);
      const phrase = await stack.rest(`tsearch?select=id&my_tsv=not.phfts(english).${encodeURIComponent('The Fat Cats')}&order=id`);
      expect(await phrase.json()).toEqual([{ id: 2 }, { id: 4 }]);
    });

    it('answers an unknown text search language with the database error', async () => {
      const { error, status } = await db.from('tsearch').select('id').textSearch('my_tsv', 'cat', { config: 'klingon' });
      expect(status).toBe(400);
      expect(error).toMatchObject({ code: '42704' });
    });

    it('applies like and ilike with any and all, and the regular expression operators', async () => {
      const people = () => db.from('people').select('id');
      // Olsen, Pearson, Olden, Nolan
      expect(await found(people().likeAnyOf('last_name', ['O*', 'P*']))).toEqual([1, 2, 3]);
      expect(await found(people().likeAllOf('last_name', ['O*', '*n']))).toEqual([1, 3]);
      expect(await found(people().ilikeAnyOf('last_name', ['o*', 'n*']))).toEqual([1, 3, 4]);
      expect(await found(people().ilikeAllOf('last_name', ['%L%', '%N']))).toEqual([1, 3, 4]);
      expect(await found(people().filter('first_name', 'eq(any)', '{Oscar,Rita}'))).toEqual([1, 4]);
      expect(await found(people().filter('id', 'gt(all)', '{1,2}'))).toEqual([3, 4]);
      expect(await found(people().regexMatch('last_name', '^O.*n$'))).toEqual([1, 3]);
      expect(await found(people().regexIMatch('last_name', '^o'))).toEqual([1, 3]);
      expect(await found(people().isDistinct('first_name', 'Oscar'))).toEqual([2, 3, 4]);
    });

    it('filters on JSON paths with ->> as text and -> as JSON', async () => {
      const people = () => db.from('people').select('id');
      expect(await found(people().eq('json_data->>blood_type', 'A-'))).toEqual([1, 3]);
      expect(await found(people().gt('json_data->age', 20))).toEqual([1, 2, 3]);
      expect(await found(people().eq('json_data->phones->0->>country_code', '43'))).toEqual([2]);
      expect(await found(people().or('json_data->>blood_type.eq.B+,json_data->age.gte.35'))).toEqual([3, 4]);
    });

    it('refuses an unknown operator and a malformed filter with PGRST100', async () => {
      const unknown = await db.from('people').select('id').filter('id', 'between', '1');
      expect(unknown).toMatchObject({ status: 400, error: { code: 'PGRST100' } });
      const badIs = await db.from('people').select('id').filter('id', 'is', 'maybe');
      expect(badIs).toMatchObject({ status: 400, error: { code: 'PGRST100' } });
    });
  });
}
