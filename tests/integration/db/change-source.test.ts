/**
 * Where a change came from: a push may name a source per row ("imported from FILE"), and
 * the change history keeps it beside the device and the typed time; a row without one, a
 * REST write and a push of an older app (no p_sources) keep none. Like the device id, a
 * source is what the device says: cut to serviceLimits.changeSourceLength, ignored when
 * it is not text, and it never blocks the change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceLimits } from '../../../src/domain/limits.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines } from '../../support/test-databases.ts';

const day = (date: string, row: string, value: number) => ({
  store_id: demo.storeA, entry_date: date, year: 2034, month: Number(date.slice(5, 7)), day_of_week_iso: new Date(`${date}T12:00:00Z`).getUTCDay() || 7, row_identifier: row, metric_type: 'hours', value,
});
const json = (value: unknown) => `'${JSON.stringify(value).replaceAll("'", "''")}'::jsonb`;

for (const engine of engines) {
  describe(`the source of a change on ${engine}`, () => {
    let db: TestDatabase;

    async function commitAsManager(sql: string) {
      await db.transaction(async (tx) => {
        await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [JSON.stringify({ sub: demo.managerId, role: 'authenticated' })]);
        await tx.query(sql);
      });
    }
    const sources = async (date: string) =>
      (
        await db.query<{ row: string; new_value: unknown; source: string | null; device_id: string | null }>(
          `select row_key ->> 'row_identifier' as row, new_value, source, device_id from change_history
           where table_name = 'daily_inputs' and row_key ->> 'entry_date' = $1 order by id`,
          [date],
        )
      ).rows;

    beforeAll(async () => {
      db = await createTestDatabase(engine);
    });
    afterAll(() => db?.dispose());

    it('keeps each row its own source, and none for a row the push names none for', async () => {
      const rows = [day('2034-03-01', 'CP', 5), day('2034-03-01', 'W', 6), day('2034-03-01', 'I', 7)];
      await commitAsManager(
        `select public.push_changes_reported('daily_inputs', ${json(rows)}, null, 'tablet-3', ${json(['imported from july.csv', null, 'imported from other.csv'])})`,
      );
      expect(await sources('2034-03-01')).toEqual([
        { row: 'CP', new_value: 5, source: 'imported from july.csv', device_id: 'tablet-3' },
        { row: 'I', new_value: 7, source: 'imported from other.csv', device_id: 'tablet-3' },
        { row: 'W', new_value: 6, source: null, device_id: 'tablet-3' },
      ]);
    });

    it('keeps none for a push of an older app, nor for a REST write', async () => {
      await commitAsManager(`select public.push_changes_reported('daily_inputs', ${json([day('2034-03-02', 'CP', 1)])}, null, 'tablet-3')`);
      await commitAsManager(`update daily_inputs set value = 2 where store_id = '${demo.storeA}' and entry_date = '2034-03-02'`);
      expect((await sources('2034-03-02')).map((r) => r.source)).toEqual([null, null]);
    });

    it(`cuts a source to ${serviceLimits.changeSourceLength} characters, and ignores one that is not text or does not fit the rows`, async () => {
      const long = `imported from ${'x'.repeat(300)}.csv`;
      await commitAsManager(`select public.push_changes_reported('daily_inputs', ${json([day('2034-03-03', 'CP', 1), day('2034-03-03', 'W', 2)])}, null, null, ${json([long, 42])})`);
      expect((await sources('2034-03-03')).map((r) => r.source)).toEqual([long.slice(0, serviceLimits.changeSourceLength), null]);

      // One source for two rows, or not a list: the change is written, with no source.
      await commitAsManager(`select public.push_changes_reported('daily_inputs', ${json([day('2034-03-04', 'CP', 1), day('2034-03-04', 'W', 2)])}, null, null, ${json(['imported from a.csv'])})`);
      await commitAsManager(`select public.push_changes_reported('daily_inputs', ${json([day('2034-03-05', 'CP', 1)])}, null, null, ${json({ source: 'imported from b.csv' })})`);
      expect(await sources('2034-03-04')).toMatchObject([{ new_value: 1, source: null }, { new_value: 2, source: null }]);
      expect(await sources('2034-03-05')).toMatchObject([{ new_value: 1, source: null }]);
    });

    it('cannot be written through the history itself', async () => {
      const attempt = db.transaction(async (tx) => {
        await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [JSON.stringify({ sub: demo.managerId, role: 'authenticated' })]);
        await tx.query(`update change_history set source = 'typed by hand'`);
      });
      await expect(attempt).rejects.toMatchObject({ code: '42501' });
    });
  });
}
