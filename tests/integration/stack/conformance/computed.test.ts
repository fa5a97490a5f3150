import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../support/test-databases.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { startConformanceStack } from './conformance-stack.ts';

// Functions as relationships and fields, relationships through views, the count shorthand,
// and the errors of embeds, as PostgREST 12 answers them (computed_fields.rst,
// resource_embedding.rst "Computed Relationships", Plan.hs findRel, Error.hs). Premieres
// of fixture.sql: 1 Paris and 2 Lyon of film 1, 3 Paris of film 4; films 1-4 have
// directors 2, 1, 3, 3; film 4's actors are 2 Georges Méliès and 3 Bleuette Bernon.
// Aggregates stay off (hosted Supabase's default): the count shorthand needs none.
for (const engine of engines) {
  describe(`PostgREST computed relationships, computed fields and views on ${engine}`, () => {
    let stack: ConformanceStack;
    let db: SupabaseClient;

    beforeAll(async () => {
      stack = await startConformanceStack(engine);
      db = stack.service();
    });
    afterAll(() => stack?.stop());

    it('embeds a set-returning function of the parent row as an array, and a ROWS 1 one as an object', async () => {
      const films = await db.from('films').select('title, premieres(location)').order('id').order('id', { referencedTable: 'premieres' });
      expect(films).toMatchObject({ error: null, status: 200 });
      expect(films.data).toEqual([
        { title: 'Workers Leaving The Lumière Factory In Lyon', premieres: [{ location: 'Paris' }, { location: 'Lyon' }] },
        { title: 'The Dickson Experimental Sound Film', premieres: [] },
        { title: 'The Haunted Castle', premieres: [] },
        { title: 'A Trip to the Moon', premieres: [{ location: 'Paris' }] },
      ]);
      const premieres = await db.from('premieres').select('location, film(title, directors(last_name))').order('id');
      expect(premieres.data).toEqual([
        { location: 'Paris', film: { title: 'Workers Leaving The Lumière Factory In Lyon', directors: { last_name: 'Lumière' } } },
        { location: 'Lyon', film: { title: 'Workers Leaving The Lumière Factory In Lyon', directors: { last_name: 'Lumière' } } },
        { location: 'Paris', film: { title: 'A Trip to the Moon', directors: { last_name: 'Méliès' } } },
      ]);
    });

    it('drops parents without rows of an !inner embedded function, and embeds functions of an rpc\'s rows', async () => {
      const inner = await db.from('films').select('id, premieres!inner(id)').order('id').order('id', { referencedTable: 'premieres' });
      expect(inner.data).toEqual([{ id: 1, premieres: [{ id: 1 }, { id: 2 }] }, { id: 4, premieres: [{ id: 3 }] }]);
      const called = await db.rpc('getallfilms').select('title, premieres(location)').eq('id', 4);
      expect(called.data).toEqual([{ title: 'A Trip to the Moon', premieres: [{ location: 'Paris' }] }]);
    });

    it('selects, filters and orders by a computed field, also inside an embed', async () => {
      const named = await db.from('actors').select('full_name').order('full_name', { ascending: false });
      expect(named.data).toEqual([{ full_name: "Jehanne d'Alcy" }, { full_name: 'Georges Méliès' }, { full_name: 'Bleuette Bernon' }]);
      const filtered = await db.from('actors').select('id').like('full_name', '*Méliès');
      expect(filtered.data).toEqual([{ id: 2 }]);
      const embedded = await db.from('films').select('title, actors(full_name)').eq('id', 4).order('id', { referencedTable: 'actors' });
      expect(embedded.data).toEqual([{ title: 'A Trip to the Moon', actors: [{ full_name: 'Georges Méliès' }, { full_name: 'Bleuette Bernon' }] }]);
    });

    it('embeds through a view that shows a foreign key, from the view and towards it', async () => {
      const fromView = await db.from('film_view').select('title, directors(last_name)').eq('id', 3);
      expect(fromView.data).toEqual([{ title: 'The Haunted Castle', directors: { last_name: 'Méliès' } }]);
      const toView = await db.from('directors').select('last_name, film_view(title)').eq('id', 1);
      expect(toView.data).toEqual([{ last_name: 'Dickson', film_view: [{ title: 'The Dickson Experimental Sound Film' }] }]);
    });

    it('counts an embed\'s rows with the count shorthand, as PostgreSQL reads films.count', async () => {
      const counted = await db.from('directors').select('last_name, films(count)').order('id');
      expect(counted).toMatchObject({ error: null, status: 200 });
      expect(counted.data).toEqual([
        { last_name: 'Dickson', films: [{ count: 1 }] },
        { last_name: 'Lumière', films: [{ count: 1 }] },
        { last_name: 'Méliès', films: [{ count: 2 }] },
      ]);
      const toOne = await db.from('films').select('id, directors(count)').eq('id', 1);
      expect(toOne.data).toEqual([{ id: 1, directors: { count: 1 } }]);
    });

    it('answers the count shorthand beside other columns, and other names, with PostgreSQL\'s errors', async () => {
      const mixed = await db.from('directors').select('last_name, films(id, count)');
      expect(mixed.status).toBe(400);
      expect(mixed.error).toMatchObject({ code: '42803', message: 'column "films_1.id" must appear in the GROUP BY clause or be used in an aggregate function' });
      const summed = await db.from('directors').select('last_name, films(sum)');
      expect(summed.status).toBe(400);
      expect(summed.error).toEqual({ code: '42703', message: 'column films_1.sum does not exist', details: null, hint: null });
      const misspelt = await db.from('films').select('titel');
      expect(misspelt.error).toEqual({ code: '42703', message: 'column films.titel does not exist', details: null, hint: 'Perhaps you meant to reference the column "films.title".' });
    });

    it('answers an embed matching nothing 400 PGRST200 with the closest name, and two embeds of one name 42712', async () => {
      const unknown = await db.from('films').select('title, director(last_name)');
      expect(unknown.status).toBe(400);
      expect(unknown.error).toEqual({
        code: 'PGRST200',
        message: "Could not find a relationship between 'films' and 'director' in the schema cache",
        details: "Searched for a foreign key relationship between 'films' and 'director' in the schema 'conformance', but no matches were found.",
        hint: "Perhaps you meant 'directors' instead of 'director'.",
      });
      const twice = await db.from('orders').select('addresses!billing(name), addresses!shipping(name)');
      expect(twice.status).toBe(400);
      expect(twice.error).toMatchObject({ code: '42712', message: 'table name "orders_addresses_1" specified more than once' });
      // A relationship that does not exist is named even beyond the embed depth this backend serves.
      const deep = await db.from('films').select('directors(films(directors(films(nope(id)))))');
      expect(deep.error).toMatchObject({ code: 'PGRST200', message: "Could not find a relationship between 'films' and 'nope' in the schema cache" });
      const column = await db.from('films').select('premieres(nope)');
      expect(column.error).toMatchObject({ code: '42703', message: 'column premieres_1.nope does not exist' });
    });
  });
}
