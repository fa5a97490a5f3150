/**
 * push_changes applied set-based: a batch is written by a few statements per field set,
 * and still keeps every promise of the row-by-row function it replaced: field-level
 * writes, idempotent re-sends, row-level security, one bad row failing the call with its
 * own error (the device splits the batch until that row is alone), the 400-row bound.
 * Where the promise is "the same as before", the function shipped before this one
 * (20260302000000_push_changes_batch_bound.sql, installed here under another name) is
 * the reference: same answers, same stored rows, same error code and message (for every
 * synced table: push-changes-every-table.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceLimits } from '../../../src/domain/limits.ts';
import type { Row } from '../../../supabase/local/db/database.ts';
import { isPostgresError } from '../../../supabase/local/db/database.ts';
import type { Actor } from '../../support/as-role.ts';
import { asActor } from '../../support/as-role.ts';
import { demo } from '../../support/demo.ts';
import type { TestDatabase } from '../../support/test-databases.ts';
import { createTestDatabase, engines, sessionsWaitingOnLocks } from '../../support/test-databases.ts';
import type { PushFunction } from './previous-push-changes.ts';
import { comparable, installPreviousPushChanges } from './previous-push-changes.ts';
import { until } from '../../support/poll.ts';

const manager: Actor = { role: 'authenticated', userId: demo.managerId };

type Pushed = { ok: true; answer: Row[]; stored: Row[] } | { ok: false; code: string; message: string };

/** A full daily_inputs row of store A: hours of `category` on 2031-03-`day` (March 2031 starts on a Saturday). */
function day(dayOfMonth: number, value: unknown, category = 'CP', extra: Row = {}): Row {
  const date = new Date(Date.UTC(2031, 2, dayOfMonth));
  return {
    store_id: demo.storeA,
    entry_date: date.toISOString().slice(0, 10),
    row_identifier: category,
    metric_type: 'hours',
    year: 2031,
    month: 3,
    day_of_week_iso: date.getUTCDay() || 7,
    value,
    ...extra,
  };
}

/** Only the key of that row, plus `fields`: what a device sends for a row the server has. */
function fieldsOf(dayOfMonth: number, fields: Row, category = 'CP'): Row {
  return { store_id: demo.storeA, entry_date: `2031-03-${String(dayOfMonth).padStart(2, '0')}`, row_identifier: category, metric_type: 'hours', ...fields };
}

for (const engine of engines) {
  describe(`push_changes in batches on ${engine}`, () => {
    let db: TestDatabase;

    beforeAll(async () => {
      db = await createTestDatabase(engine);
      await installPreviousPushChanges(db);
      // March 2031, days 1 to 10: CP hours equal to the day, week of month unset.
      await db.query(
        `insert into public.daily_inputs (store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value)
         select $1, d::date, 2031, 3, extract(isodow from d)::int, 'CP', 'hours', extract(day from d)
         from generate_series('2031-03-01'::date, '2031-03-10'::date, interval '1 day') d`,
        [demo.storeA],
      );
    });
    afterAll(() => db?.dispose());

    const storedMarch = (tx: { query: TestDatabase['query'] }) =>
      tx
        .query(
          `select entry_date::text as date, row_identifier, value::text, week_of_month_display as week
           from public.daily_inputs where store_id = $1 and entry_date between '2031-03-01' and '2031-03-31'
           order by entry_date, row_identifier`,
          [demo.storeA],
        )
        .then((result) => result.rows);

    /** One push as the manager, rolled back afterwards: its answer and March as stored, or its error. */
    async function push(rows: unknown, fn: PushFunction = 'push_changes', actor: Actor = manager): Promise<Pushed> {
      try {
        return await asActor(db, actor, async (tx) => {
          const { rows: result } = await tx.query<{ rows: Row[] }>(`select public.${fn}('daily_inputs', $1::jsonb) as rows`, [JSON.stringify(rows)]);
          return { ok: true as const, answer: result[0]?.rows ?? [], stored: await storedMarch(tx) };
        });
      } catch (error) {
        if (isPostgresError(error)) return { ok: false, code: error.code ?? '', message: error.message };
        throw error;
      }
    }

    /** The same push through the previous function, for comparison. */
    async function expectSameAsBefore(rows: unknown): Promise<Pushed> {
      const now = await push(rows);
      const before = await push(rows, 'push_changes_before');
      if (now.ok && before.ok) {
        expect(now.answer.map(comparable)).toEqual(before.answer.map(comparable));
        expect(now.stored).toEqual(before.stored);
      } else {
        expect(now).toEqual(before);
      }
      return now;
    }

    /** Counts the INSERT and UPDATE statements run on daily_inputs while `work` runs (a statement-level trigger). */
    async function withStatementProbe<T>(work: () => Promise<T>): Promise<T> {
      await db.exec(`
        create table public.push_probe_statements (op text not null);
        grant select, insert on public.push_probe_statements to authenticated;
        create function public.push_probe_count() returns trigger language plpgsql set search_path = '' as $$
        begin
          insert into public.push_probe_statements values (tg_op);
          return null;
        end $$;
        create trigger push_probe after insert or update on public.daily_inputs
          for each statement execute function public.push_probe_count();`);
      try {
        return await work();
      } finally {
        await db.exec(`drop trigger push_probe on public.daily_inputs;
          drop function public.push_probe_count(); drop table public.push_probe_statements;`);
      }
    }

    it('writes a batch with one UPDATE and one INSERT per field set, not a statement per row', async () => {
      // 60 rows: days 1-10 exist (one field sent), days 11-31 are new (all fields sent), categories CP and W.
      const rows = [
        ...Array.from({ length: 10 }, (_, i) => fieldsOf(i + 1, { value: 100 + i })),
        ...Array.from({ length: 21 }, (_, i) => day(i + 11, 50 + i)),
        ...Array.from({ length: 29 }, (_, i) => day(i + 1, 7, 'W')),
      ];
      const statements = await withStatementProbe(() =>
        asActor(db, manager, async (tx) => {
          await tx.query(`select public.push_changes('daily_inputs', $1::jsonb)`, [JSON.stringify(rows)]);
          return (await tx.query<{ op: string; n: number }>('select op, count(*)::int as n from public.push_probe_statements group by op order by op')).rows;
        }),
      );
      // Two field sets: {key, value} (update only: all exist) and the full row (update finds none, then insert).
      expect(statements).toEqual([
        { op: 'INSERT', n: 1 },
        { op: 'UPDATE', n: 2 },
      ]);
    });

    it('writes only the fields each row sent, when rows of one batch send different fields', async () => {
      const batch = [
        fieldsOf(1, { value: 11 }),
        day(20, 7, 'CP', { week_of_month_display: 3 }),
        fieldsOf(2, { week_of_month_display: 1 }),
        fieldsOf(3, {}),
        day(4, 44),
        fieldsOf(5, { value: null }),
      ];
      const pushed = await push(batch);
      expect(pushed.ok).toBe(true);
      if (!pushed.ok) return;
      // Answers in the order sent, each the row as stored.
      expect(pushed.answer.map((row) => [row.entry_date, row.value, row.week_of_month_display])).toEqual([
        ['2031-03-01', 11, null],
        ['2031-03-20', 7, 3],
        ['2031-03-02', 2, 1],
        ['2031-03-03', 3, null],
        ['2031-03-04', 44, null],
        ['2031-03-05', null, null],
      ]);
      expect(pushed.answer.every((row) => !('sync_xid' in row))).toBe(true);
      expect(pushed.stored.slice(0, 10).map((row) => [row.date, row.value, row.week])).toEqual([
        ['2031-03-01', '11.00', null],
        ['2031-03-02', '2.00', 1],
        ['2031-03-03', '3.00', null],
        ['2031-03-04', '44.00', null],
        ['2031-03-05', null, null],
        ['2031-03-06', '6.00', null],
        ['2031-03-07', '7.00', null],
        ['2031-03-08', '8.00', null],
        ['2031-03-09', '9.00', null],
        ['2031-03-10', '10.00', null],
      ]);
      expect(pushed.stored.slice(10).map((row) => [row.date, row.value, row.week])).toEqual([['2031-03-20', '7.00', 3]]);
      await expectSameAsBefore(batch);
    });

    it('changes nothing more when the same batch is sent again', async () => {
      const batch = [fieldsOf(6, { value: 60.5 }), day(21, 5, 'I'), day(22, 6, 'I'), fieldsOf(7, { week_of_month_display: 2 })];
      const runs = await asActor(db, manager, async (tx) => {
        const answers: Row[][] = [];
        const states: Row[][] = [];
        for (let i = 0; i < 3; i += 1) {
          const { rows } = await tx.query<{ rows: Row[] }>(`select public.push_changes('daily_inputs', $1::jsonb) as rows`, [JSON.stringify(batch)]);
          answers.push((rows[0]?.rows ?? []).map(({ updated_at: _stamped, ...rest }) => rest));
          states.push(await storedMarch(tx));
        }
        return { answers, states };
      });
      expect(runs.answers[1]).toEqual(runs.answers[0]);
      expect(runs.answers[2]).toEqual(runs.answers[0]);
      expect(runs.states[1]).toEqual(runs.states[0]);
      expect(runs.states[2]).toEqual(runs.states[0]);
      // Ten rows before, two new ones (days 21 and 22, category I).
      expect(runs.states[0]).toHaveLength(12);
    });

    const badRows: Array<[string, unknown, string]> = [
      ['a value its check refuses', day(15, -3), '23514'],
      ['a value too large for its column', day(15, 1e15), '22003'],
      ['a value that is not a number', day(15, 'twelve'), '22P02'],
      ['a date that does not match its calendar columns', day(15, 1, 'CP', { day_of_week_iso: 1 }), '23514'],
      ['a new row without its required fields', fieldsOf(15, { value: 1 }), '23502'],
      ['a row of another store (row-level security)', { ...day(15, 1), store_id: demo.storeB }, '42501'],
      ['a column that does not exist', day(15, 1, 'CP', { nope: 1 }), '42703'],
      ['a column the server stamps', day(15, 1, 'CP', { updated_at: '2031-01-01T00:00:00Z' }), '42703'],
      ['a row without its whole key', { store_id: demo.storeA, entry_date: '2031-03-15', metric_type: 'hours', value: 1 }, '22023'],
      ['a row that is not an object', [1, 2], '22023'],
    ];

    it.each(badRows)('fails a batch for %s with that row\'s own error, and writes nothing', async (_what, bad, code) => {
      const good = [...Array.from({ length: 6 }, (_, i) => fieldsOf(i + 1, { value: 200 + i })), ...Array.from({ length: 6 }, (_, i) => day(i + 23, 9))];
      const alone = await push([bad]);
      expect(alone).toMatchObject({ ok: false, code });
      // Anywhere in the batch, the call fails with exactly the row's own code and message.
      for (const batch of [[bad, ...good], [...good.slice(0, 6), bad, ...good.slice(6)], [...good, bad]]) {
        expect(await push(batch)).toEqual(alone);
      }
      // As the previous function answered.
      await expectSameAsBefore([...good.slice(0, 6), bad, ...good.slice(6)]);
      // Nothing of a failed call was written; without the bad row, the rest lands.
      const untouched = await asActor(db, manager, (tx) => storedMarch(tx));
      const rest = await push(good);
      expect(rest).toMatchObject({ ok: true });
      if (rest.ok) expect(rest.stored).toHaveLength(untouched.length + 6);
    });

    it('fails a batch for the first refused row in the order sent, as before, when several are bad', async () => {
      const batch = [fieldsOf(1, { value: 1 }), day(24, 1e15), fieldsOf(2, { nope: 1 }), { ...day(25, 1), store_id: demo.storeB }];
      expect(await expectSameAsBefore(batch)).toMatchObject({ ok: false, code: '22003' });
      expect(await expectSameAsBefore(batch.slice(2))).toMatchObject({ ok: false, code: '42703' });
      expect(await expectSameAsBefore(batch.slice(3))).toMatchObject({ ok: false, code: '42501' });
      // Typing every value (set-based) meets the overflow of the second row before the check of the first.
      expect(await expectSameAsBefore([day(24, -3), day(25, 1e15)])).toMatchObject({ ok: false, code: '23514' });
    });

    it('refuses a row of another store for that row only: the store is unchanged and the other rows land alone', async () => {
      const intruder = { ...day(16, 3), store_id: demo.storeB };
      const rows = [day(16, 3), intruder, day(17, 4)];
      const countB = async () =>
        (await db.query<{ n: number }>('select count(*)::int as n from public.daily_inputs where store_id = $1', [demo.storeB])).rows[0]?.n;
      const before = await countB();
      expect(await push(rows)).toMatchObject({ ok: false, code: '42501' });
      expect(await countB()).toBe(before);
      const landed = await push([rows[0], rows[2]]);
      expect(landed.ok && landed.stored.filter((row) => row.date === '2031-03-16' || row.date === '2031-03-17')).toEqual([
        { date: '2031-03-16', row_identifier: 'CP', value: '3.00', week: null },
        { date: '2031-03-17', row_identifier: 'CP', value: '4.00', week: null },
      ]);
    });

    it('applies a key sent twice in one batch in the order sent, as before, however its values are spelled', async () => {
      // The same day as a date and as a timestamp string: one key once typed.
      const asTimestamp = (row: Row) => ({ ...row, entry_date: `${String(row.entry_date)}T00:00:00` });
      const cases: Array<[string, Row[], unknown[], string]> = [
        ['an existing row, the same fields', [fieldsOf(8, { value: 80 }), asTimestamp(fieldsOf(8, { value: 81 })), day(26, 1)], [80, 81, 1], '81.00'],
        ['an existing row, other fields', [asTimestamp(fieldsOf(8, { value: 82, week_of_month_display: 2 })), fieldsOf(8, { value: 83 })], [82, 83], '83.00'],
        ['an existing row, spelled alike', [fieldsOf(8, { value: 84 }), fieldsOf(8, { value: 85 })], [84, 85], '85.00'],
        ['an existing row, key only', [fieldsOf(8, {}), asTimestamp(fieldsOf(8, {}))], [8, 8], '8.00'],
        ['a new row', [day(26, 1), asTimestamp(day(26, 2))], [1, 2], '2.00'],
        ['a new row, then some of its fields', [asTimestamp(day(26, 3)), fieldsOf(26, { value: 4 })], [3, 4], '4.00'],
      ];
      for (const [what, batch, answers, stored] of cases) {
        const pushed = await expectSameAsBefore(batch);
        expect(pushed.ok && pushed.answer.map((row) => row.value), what).toEqual(answers);
        const date = String(batch[0]?.entry_date).slice(0, 10);
        expect(pushed.ok && pushed.stored.find((row) => row.date === date)?.value, what).toBe(stored);
      }
    });

    it('refuses an empty object as a row without its key', async () => {
      expect(await push([day(26, 1), {}])).toMatchObject({ ok: false, code: '22023', message: 'push_changes: a "daily_inputs" row needs its key {store_id,entry_date,row_identifier,metric_type}' });
    });

    it(`takes ${serviceLimits.pushBatchRows} rows of mixed field sets, new and existing, in one call`, async () => {
      // 10 existing days (value only), then new days of every month of 2032 and 2033, hours of CP/W/I.
      const newRows = Array.from({ length: serviceLimits.pushBatchRows - 10 }, (_, i) => {
        const date = new Date(Date.UTC(2032, 0, 1 + Math.floor(i / 3)));
        return {
          store_id: demo.storeA,
          entry_date: date.toISOString().slice(0, 10),
          row_identifier: ['CP', 'W', 'I'][i % 3],
          metric_type: 'hours',
          year: date.getUTCFullYear(),
          month: date.getUTCMonth() + 1,
          day_of_week_iso: date.getUTCDay() || 7,
          value: i % 2 === 0 ? 1 : 2,
        };
      });
      const rows = [...Array.from({ length: 10 }, (_, i) => fieldsOf(i + 1, { value: 0.5 })), ...newRows];
      const counted = await asActor(db, manager, async (tx) => {
        const { rows: result } = await tx.query<{ rows: Row[] }>(`select public.push_changes('daily_inputs', $1::jsonb) as rows`, [JSON.stringify(rows)]);
        const march = await tx.query<{ total: string }>(
          `select sum(value)::text as total from public.daily_inputs where store_id = $1 and entry_date between '2031-03-01' and '2031-03-10' and row_identifier = 'CP'`,
          [demo.storeA],
        );
        const added = await tx.query<{ n: number; total: string }>(
          `select count(*)::int as n, sum(value)::text as total from public.daily_inputs where store_id = $1 and entry_date >= '2032-01-01' and metric_type = 'hours'`,
          [demo.storeA],
        );
        return { answered: result[0]?.rows.length, march: march.rows[0]?.total, added: added.rows[0] };
      });
      // 390 new rows alternate 1 and 2: 195 * 1 + 195 * 2 = 585; the ten March days are 0.5 each.
      expect(counted).toEqual({ answered: 400, march: '5.00', added: { n: 390, total: '585.00' } });
    });

    it('fails a batch for the one row a trigger refuses, with the trigger\'s own message, and writes nothing', async () => {
      // A check the function cannot foresee, as a closed month is: raised by a trigger for one day.
      await db.exec(`
        create function public.push_probe_closed_day() returns trigger language plpgsql set search_path = '' as $$
        begin
          if new.entry_date = date '2031-03-27' then
            raise exception 'March 2031 was closed by Dana Reyes; % cannot change', new.entry_date using errcode = '23514';
          end if;
          return new;
        end $$;
        create trigger push_probe_closed_day before insert or update on public.daily_inputs
          for each row execute function public.push_probe_closed_day();`);
      try {
        const good = [...Array.from({ length: 10 }, (_, i) => fieldsOf(i + 1, { value: 3 })), day(28, 2)];
        const closed = day(27, 5);
        const expected = { ok: false, code: '23514', message: 'March 2031 was closed by Dana Reyes; 2031-03-27 cannot change' };
        expect(await push([closed])).toEqual(expected);
        expect(await push([...good.slice(0, 4), closed, ...good.slice(4)])).toEqual(expected);
        await expectSameAsBefore([...good.slice(0, 4), closed, ...good.slice(4)]);
        expect(await push(good)).toMatchObject({ ok: true });
      } finally {
        await db.exec('drop trigger push_probe_closed_day on public.daily_inputs; drop function public.push_probe_closed_day();');
      }
    });

    if (engine === 'postgres') {
      it('updates a row another transaction created while the batch was on its way, instead of refusing it', async () => {
        // Another device's push inserts day 29 and holds its transaction open; ours finds no
        // day 29 to update, waits at the insert, and must then update the row that won.
        let releaseOther: () => void = () => undefined;
        const otherHolds = new Promise<void>((resolve) => (releaseOther = resolve));
        let otherInserted: () => void = () => undefined;
        const inserted = new Promise<void>((resolve) => (otherInserted = resolve));
        const other = db.transaction(async (tx) => {
          await tx.query(
            `insert into public.daily_inputs (store_id, entry_date, year, month, day_of_week_iso, row_identifier, metric_type, value, week_of_month_display)
             values ($1, '2031-03-29', 2031, 3, 6, 'CP', 'hours', 1, 5)`,
            [demo.storeA],
          );
          otherInserted();
          await otherHolds;
        });
        await inserted;
        const ours = db.transaction(async (tx) => {
          await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
            JSON.stringify({ sub: demo.managerId, role: 'authenticated' }),
          ]);
          const { rows } = await tx.query<{ rows: Row[] }>(`select public.push_changes('daily_inputs', $1::jsonb) as rows`, [
            JSON.stringify([day(29, 9), day(30, 9)]),
          ]);
          return rows[0]?.rows ?? [];
        });
        // Once ours waits for the other's row lock (its insert met the other's row), let the other commit.
        await until(() => sessionsWaitingOnLocks(db), (n) => n !== 0, 60_000, 'our push waiting on the row lock', 20);
        releaseOther();
        await other;
        const answer = await ours;
        expect(answer.map((row) => [row.entry_date, row.value, row.week_of_month_display])).toEqual([
          ['2031-03-29', 9, 5],
          ['2031-03-30', 9, null],
        ]);
        const { rows } = await db.query<{ n: number }>(
          `select count(*)::int as n from public.daily_inputs where store_id = $1 and entry_date in ('2031-03-29', '2031-03-30')`,
          [demo.storeA],
        );
        expect(rows[0]?.n).toBe(2);
        await db.query(`delete from public.daily_inputs where store_id = $1 and entry_date in ('2031-03-29', '2031-03-30')`, [demo.storeA]);
      });
    }
  });
}
