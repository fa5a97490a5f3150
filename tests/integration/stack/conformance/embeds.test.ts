import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../support/test-databases.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { startConformanceStack } from './conformance-stack.ts';

// Resource embedding (resource_embedding.rst): relationships by table, constraint or
// column, one-to-one as an object, many-to-many through a junction, !inner and !left,
// null filters on embeds, spreads and ordering by a to-one embed. Expected rows are
// written by hand from fixture.sql.
for (const engine of engines) {
  describe(`PostgREST resource embedding on ${engine}`, () => {
    let stack: ConformanceStack;
    let db: SupabaseClient;

    beforeAll(async () => {
      stack = await startConformanceStack(engine);
      db = stack.service();
    });
    afterAll(() => stack?.stop());

    it('embeds many-to-one as an object and one-to-many as an array', async () => {
      const films = await db.from('films').select('title, director:directors(last_name)').in('id', [1, 2]).order('id');
      expect(films).toMatchObject({ error: null });
      expect(films.data).toEqual([
        { title: 'Workers Leaving The Lumière Factory In Lyon', director: { last_name: 'Lumière' } },
        { title: 'The Dickson Experimental Sound Film', director: { last_name: 'Dickson' } },
      ]);
      const directors = await db.from('directors').select('last_name, films(title)').eq('id', 3).order('id', { referencedTable: 'films' });
      expect(directors.data).toEqual([{ last_name: 'Méliès', films: [{ title: 'The Haunted Castle' }, { title: 'A Trip to the Moon' }] }]);
    });

    it('returns a one-to-one relationship as an object, from both sides', async () => {
      const films = await db.from('films').select('id, technical_specs(camera)').order('id');
      expect(films.data).toEqual([
        { id: 1, technical_specs: { camera: 'Cinématographe' } },
        { id: 2, technical_specs: null },
        { id: 3, technical_specs: { camera: 'Star Film camera' } },
        { id: 4, technical_specs: null },
      ]);
      const specs = await db.from('technical_specs').select('camera, films(title)').eq('film_id', 3);
      expect(specs.data).toEqual([{ camera: 'Star Film camera', films: { title: 'The Haunted Castle' } }]);
    });

    it('embeds many-to-many through the junction table, and the junction itself', async () => {
      const actors = await db.from('actors').select('last_name, films(title)').eq('id', 2).order('id', { referencedTable: 'films' });
      expect(actors.data).toEqual([{ last_name: 'Méliès', films: [{ title: 'The Haunted Castle' }, { title: 'A Trip to the Moon' }] }]);
      const nested = await db.from('films').select('title, roles(character, actors(first_name))').eq('id', 4).order('actor_id', { referencedTable: 'roles' });
      expect(nested.data).toEqual([{
        title: 'A Trip to the Moon',
        roles: [
          { character: 'Professor Barbenfouillis', actors: { first_name: 'Georges' } },
          { character: 'Moon Goddess', actors: { first_name: 'Bleuette' } },
        ],
      }]);
    });

    it('answers an ambiguous embed 300 PGRST201 with the candidates, and takes the constraint or a column as hint', async () => {
      const ambiguous = await db.from('orders').select('*, addresses(*)');
      expect(ambiguous.status).toBe(300);
      expect(ambiguous.error).toMatchObject({
        code: 'PGRST201',
        message: "Could not embed because more than one relationship was found for 'orders' and 'addresses'",
        hint: "Try changing 'addresses' to one of the following: 'addresses!billing', 'addresses!shipping'. Find the desired relationship in the 'details' key.",
        details: [
          { cardinality: 'many-to-one', embedding: 'orders with addresses', relationship: 'billing using orders(billing_address_id) and addresses(id)' },
          { cardinality: 'many-to-one', embedding: 'orders with addresses', relationship: 'shipping using orders(shipping_address_id) and addresses(id)' },
        ],
      });
      const hinted = await db
        .from('orders')
        .select('name, billing_address:addresses!billing(name), shipping_address:addresses!shipping_address_id(name)')
        .eq('id', 1);
      expect(hinted.data).toEqual([{ name: 'Personal Water Filter', billing_address: { name: '32 Glenlake Dr' }, shipping_address: { name: '30 Glenlake Dr' } }]);
      // The other way round: the orders billed, or shipped, to an address.
      const reverse = await db
        .from('addresses')
        .select('name, billed:orders!billing(name), shipped:orders!shipping(name)')
        .eq('id', 2)
        .order('id', { referencedTable: 'shipped' });
      expect(reverse.data).toEqual([{ name: '30 Glenlake Dr', billed: [{ name: 'Blender' }], shipped: [{ name: 'Personal Water Filter' }, { name: 'Blender' }] }]);
    });

    it('names a relationship by its constraint or its column instead of the table', async () => {
      const byConstraint = await db.from('orders').select('name, billing(city)').eq('id', 3);
      expect(byConstraint.data).toEqual([{ name: 'Kettle', billing: { city: 'Boston' } }]);
      const byColumn = await db.from('orders').select('name, shipping_address_id(name)').eq('id', 4);
      expect(byColumn.data).toEqual([{ name: 'Toaster', shipping_address_id: { name: '32 Glenlake Dr' } }]);
      const none = await db.from('orders').select('name, addresses!nope(name)');
      expect(none).toMatchObject({ status: 400, error: { code: 'PGRST200' } });
    });

    it('drops parents without a match with !inner, keeps them with !left, and filters by embed nullness', async () => {
      const inner = await db.from('films').select('title, actors!inner(first_name)').eq('actors.first_name', 'Jehanne');
      expect(inner.data).toEqual([{ title: 'The Haunted Castle', actors: [{ first_name: 'Jehanne' }] }]);
      const left = await db.from('films').select('id, actors!left(first_name)').eq('actors.first_name', 'Jehanne').order('id');
      expect(left.data?.map((f) => [f.id, f.actors.length])).toEqual([[1, 0], [2, 0], [3, 1], [4, 0]]);
      const withSpecs = await db.from('films').select('id, technical_specs()').not('technical_specs', 'is', null).order('id');
      expect(withSpecs.data).toEqual([{ id: 1 }, { id: 3 }]);
      const withoutRoles = await db.from('films').select('id, roles()').is('roles', null).order('id');
      expect(withoutRoles.data).toEqual([{ id: 1 }, { id: 2 }]);
      const count = await db.from('films').select('id, actors!inner(first_name)', { count: 'exact', head: true }).eq('actors.first_name', 'Georges');
      expect(count.count).toBe(2);
      const bad = await db.from('films').select('id, roles()').eq('roles', 'x');
      expect(bad).toMatchObject({ status: 400, error: { code: 'PGRST120' } });
    });

    it('spreads a to-one embed into its parent, and refuses to spread a to-many one', async () => {
      const spread = await db.from('films').select('title, ...directors(director_last_name:last_name)').like('title', '*Workers*');
      expect(spread.data).toEqual([{ title: 'Workers Leaving The Lumière Factory In Lyon', director_last_name: 'Lumière' }]);
      const junction = await db.from('films').select('title, actors:roles(character, ...actors(first_name, last_name))').eq('id', 3).order('actor_id', { referencedTable: 'roles' });
      expect(junction.data).toEqual([{
        title: 'The Haunted Castle',
        actors: [
          { character: 'The Witch', first_name: 'Jehanne', last_name: "d'Alcy" },
          { character: 'The Cavalier', first_name: 'Georges', last_name: 'Méliès' },
        ],
      }]);
      const toMany = await db.from('directors').select('last_name, ...films(title)');
      expect(toMany).toMatchObject({ status: 400, error: { code: 'PGRST119', message: "A spread operation on 'films' is not possible" } });
    });

    it('orders the top level by a column of a to-one embed, and refuses a to-many one', async () => {
      const ordered = await db.from('films').select('id, directors(last_name)').order('directors(last_name)', { ascending: false }).order('id');
      expect(ordered.data?.map((f) => f.id)).toEqual([3, 4, 1, 2]);
      const refused = await stack.rest('directors?select=id,films(title)&order=films(title)');
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'PGRST118' });
    });

    it('returns embeds of the rows a write returns', async () => {
      const inserted = await db
        .from('films')
        .insert({ id: 50, director_id: 2, title: 'Arrival of a Train', year: 1896, rating: 7.4, language: 'french' })
        .select('title, director:directors(first_name, last_name)');
      expect(inserted.data).toEqual([{ title: 'Arrival of a Train', director: { first_name: 'Louis', last_name: 'Lumière' } }]);
      await db.from('films').delete().eq('id', 50);
    });
  });
}
