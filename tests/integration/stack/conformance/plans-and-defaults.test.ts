import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../support/test-databases.ts';
import type { ConformanceStack } from './conformance-stack.ts';
import { startConformanceStack } from './conformance-stack.ts';

// explain() options, column defaults of a bulk insert (Prefer: missing=default, as
// PostgREST 12's pgrst_json_defs evaluates them for every row), a rolled-back write, and
// GeoJSON (ST_AsGeoJSON, so PostGIS, as in PostgREST). Notes of fixture.sql start empty,
// with an identity id and pinned defaulting to false.
type Plan = Array<{ Plan: { 'Node Type': string; Output?: string[]; 'Actual Rows'?: number }; Settings?: Record<string, string> }>;

for (const engine of engines) {
  describe(`PostgREST plans, defaults and GeoJSON on ${engine}`, () => {
    let stack: ConformanceStack;
    let db: SupabaseClient;

    beforeAll(async () => {
      stack = await startConformanceStack(engine, { rest: { planEnabled: true, txEnd: 'commit-allow-override' } });
      db = stack.service();
    });
    afterAll(() => stack?.stop());

    it('explains with the settings PostgREST sets (the search path, each schema quoted) and verbose output', async () => {
      const { data, error } = await db.from('films').select('id').explain({ format: 'json', settings: true, verbose: true });
      expect(error).toBeNull();
      const [plan] = data as unknown as Plan;
      expect(plan?.Settings?.search_path).toBe('"conformance", "public", "extensions"');
      expect(plan?.Plan.Output).toEqual(expect.arrayContaining([expect.stringMatching(/count\(\*\)/)]));
      const analyzed = await db.from('films').select('id').explain({ format: 'json', analyze: true });
      expect((analyzed.data as unknown as Plan)[0]?.Plan['Actual Rows']).toBe(1);
    });

    it('fills each missing column of a bulk insert with its default, the identity\'s next value for every row', async () => {
      const inserted = await db
        .from('notes')
        .insert([{ id: 100, body: 'first' }, { body: 'second' }], { defaultToNull: false, count: 'exact' })
        .select()
        .rollback();
      expect(inserted).toMatchObject({ error: null, status: 201, count: 2 });
      // The first row evaluates the identity's default too (1), so the second takes 2.
      expect(inserted.data).toEqual([{ id: 100, body: 'first', pinned: false }, { id: 2, body: 'second', pinned: false }]);
      expect(await stack.sql('select count(*)::int as n from conformance.notes')).toEqual([{ n: 0 }]);
      const nulls = await db.from('notes').insert([{ id: 200, body: 'third' }, { id: 201 }]).select('id, body').rollback();
      expect(nulls.data).toEqual([{ id: 200, body: 'third' }, { id: 201, body: null }]);
    });

    it('answers GeoJSON without PostGIS with PostgreSQL\'s 42883, as PostgREST does', async () => {
      const { rows } = await stack.database.query<{ n: number }>("select count(*)::int as n from pg_extension where extname = 'postgis'");
      expect(rows[0]?.n).toBe(0);
      const geo = await db.from('directors').select('id').geojson();
      expect(geo.status).toBe(404);
      expect(geo.error).toMatchObject({ code: '42883', message: 'function st_asgeojson(record) does not exist' });
    });
  });
}

const withPostgis = engines.includes('postgres');

describe('PostgREST GeoJSON with PostGIS on postgres', () => {
  let stack: ConformanceStack | undefined;
  let available = false;

  beforeAll(async () => {
    if (!withPostgis) return;
    const server = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await server.connect();
    const { rows } = await server.query<{ n: number }>("select count(*)::int as n from pg_available_extensions where name = 'postgis'");
    await server.end();
    available = rows[0]?.n === 1;
    if (!available) return;
    stack = await startConformanceStack('postgres', {
      setupSql: `create extension postgis schema extensions;
        create table conformance.shops (id int primary key, address text, shop_geom extensions.geometry(point, 4326));
        insert into conformance.shops values (1, '1369 Cambridge St', 'SRID=4326;POINT(-71.10044 42.373695)');
        grant select on conformance.shops to service_role;`,
    });
  });
  afterAll(() => stack?.stop());

  it.skipIf(!withPostgis)('answers a FeatureCollection of the rows, their geometry as each feature\'s (where PostGIS is installed)', async (ctx) => {
    if (!available || !stack) ctx.skip();
    const geo = await (stack as ConformanceStack).service().from('shops').select().geojson();
    expect(geo).toMatchObject({ error: null, status: 200 });
    expect(geo.data).toEqual({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [-71.10044, 42.373695] }, properties: { id: 1, address: '1369 Cambridge St' } }],
    });
  });
});
