import { describe, expect, it } from 'vitest';
import type { EditMeetsServer, FieldConflict } from '../../../src/domain/conflict-rule.ts';
import { conflictsOf, sameValue } from '../../../src/domain/conflict-rule.ts';

/**
 * The conflict rule, case by case (docs/reliability.md, "Who wins when two devices change
 * one field"). Each expected log is written from the rule, not from the code.
 */
describe('the conflict rule: what a device logs when its edit meets the server row', () => {
  const edit = (overrides: Partial<EditMeetsServer>): EditMeetsServer => ({ ours: { sales: 120 }, replaced: { sales: 100 }, sentEarlier: [], server: { sales: 100 }, ...overrides });

  it.each<[string, EditMeetsServer, FieldConflict[]]>([
    ['the server still holds the value the edit replaced: nobody else wrote', edit({}), []],
    ['the server already holds the edit itself (its own echo, or the same value typed elsewhere)', edit({ server: { sales: 120 } }), []],
    ['another device wrote another value: logged, the edit still wins', edit({ server: { sales: 110 } }), [{ field: 'sales', old: 100, theirs: 110, ours: 120 }]],
    [
      'the server holds a value an earlier push of this edit sent (its answer was lost): this device\'s own',
      edit({ ours: { sales: 130 }, sentEarlier: [{ sales: 120 }], server: { sales: 120 } }),
      [],
    ],
    [
      'any earlier sent value is own, not only the newest',
      edit({ ours: { sales: 140 }, sentEarlier: [{ sales: 120 }, { sales: 130 }], server: { sales: 120 } }),
      [],
    ],
    [
      'another value after earlier pushes: the old value is the newest this device sent',
      edit({ ours: { sales: 140 }, sentEarlier: [{ sales: 120 }, { sales: 130 }], server: { sales: 99 } }),
      [{ field: 'sales', old: 130, theirs: 99, ours: 140 }],
    ],
    [
      'what an earlier push sent of another field says nothing about this one',
      edit({ ours: { sales: 140 }, sentEarlier: [{ gp_net: 99 }], server: { sales: 99 } }),
      [{ field: 'sales', old: 100, theirs: 99, ours: 140 }],
    ],
    [
      'a row another device created first, where this device saw none: old is empty',
      edit({ ours: { sales: 50 }, replaced: undefined, server: { sales: 40 } }),
      [{ field: 'sales', old: null, theirs: 40, ours: 50 }],
    ],
    ['an empty field the edit filled, still empty on the server (null and missing are both empty)', edit({ ours: { sales: 50 }, replaced: { sales: null }, server: {} }), []],
    [
      'another device emptied the field: its empty value is logged as null',
      edit({ server: { sales: null } }),
      [{ field: 'sales', old: 100, theirs: null, ours: 120 }],
    ],
    [
      'field by field: only the fields another device changed, in the edit\'s order',
      edit({ ours: { sales: 120, gp_net: 70, expenses: 9 }, replaced: { sales: 100, gp_net: 60, expenses: 8 }, server: { sales: 100, gp_net: 65, expenses: 7, hours: 3 } }),
      [
        { field: 'gp_net', old: 60, theirs: 65, ours: 70 },
        { field: 'expenses', old: 8, theirs: 7, ours: 9 },
      ],
    ],
    [
      'a field this device did not change is never a conflict, whatever the server holds',
      edit({ server: { sales: 100, gp_net: 1 } }),
      [],
    ],
    [
      'lists and objects compare by content',
      edit({ ours: { work_week: [1, 2, 3] }, replaced: { work_week: [1, 2, 3, 4, 5, 6] }, server: { work_week: [1, 2, 3, 4, 5, 6] } }),
      [],
    ],
    [
      'a list another device changed is logged',
      edit({ ours: { work_week: [1, 2, 3] }, replaced: { work_week: [1, 2, 3, 4, 5, 6] }, server: { work_week: [1, 2, 3, 4, 5] } }),
      [{ field: 'work_week', old: [1, 2, 3, 4, 5, 6], theirs: [1, 2, 3, 4, 5], ours: [1, 2, 3] }],
    ],
    [
      'the row was deleted on the server: one conflict for the whole edit',
      edit({ ours: { sales: 120, gp_net: 70 }, server: 'deleted' }),
      [{ field: '*', old: null, theirs: 'deleted', ours: { sales: 120, gp_net: 70 } }],
    ],
  ])('%s', (_case, meeting, expected) => {
    expect(conflictsOf(meeting)).toEqual(expected);
  });
});

describe('field values as the rule compares them', () => {
  it.each<[unknown, unknown, boolean]>([
    [1, 1, true],
    [1, 2, false],
    ['a', 'a', true],
    [null, undefined, true],
    [0, null, false],
    ['', null, false],
    [{ a: 1 }, { a: 1 }, true],
    [[1, 2], [2, 1], false],
    [[1], null, false],
  ])('%j and %j: %s', (a, b, same) => {
    expect(sameValue(a, b)).toBe(same);
    expect(sameValue(b, a)).toBe(same);
  });
});
