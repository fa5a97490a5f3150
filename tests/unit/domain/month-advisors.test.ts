import { describe, expect, it } from 'vitest';
import { advisorsOfMonth } from '../../../src/domain/month-advisors.ts';

const ava = { id: 'a', advisor_name: 'Ava', is_active: true, created_at: '2031-01-01T00:00:00Z' };
const ben = { id: 'b', advisor_name: 'Ben', is_active: false, created_at: '2031-02-01T00:00:00Z' };
const cy = { id: 'c', advisor_name: 'Cy', is_active: false, created_at: '2031-03-01T00:00:00Z' };
const dee = { id: 'd', advisor_name: 'Dee', created_at: '2030-12-01T00:00:00Z' };

describe("a month's advisors", () => {
  it.each([
    ['the active advisors of a month nobody has figures in', [], ['Dee', 'Ava']],
    ['an inactive advisor who has figures in the month, in the order they joined', [{ advisor_id: 'b' }], ['Dee', 'Ava', 'Ben']],
    ['an inactive advisor with several rows, once', [{ advisor_id: 'c' }, { advisor_id: 'c' }, { advisor_id: 'a' }], ['Dee', 'Ava', 'Cy']],
    ['no advisor for a row of an advisor the device does not hold', [{ advisor_id: 'zz' }], ['Dee', 'Ava']],
  ])('lists %s', (_case, rows, names) => {
    expect(advisorsOfMonth([cy, ben, ava, dee], rows).map((a) => a.name)).toEqual(names);
  });
});
