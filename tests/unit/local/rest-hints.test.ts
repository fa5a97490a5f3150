import { describe, expect, it } from 'vitest';
import { missingColumnHint } from '../../../supabase/local/rest/field-scope.ts';
import { closestMatch, fuzzyMatches } from '../../../supabase/local/rest/fuzzy-set.ts';
import { parseNodeTree } from '../../../supabase/local/rest/node-tree.ts';
import { expandViewColumns } from '../../../supabase/local/rest/view-keys.ts';

// The "Perhaps you meant" hints PostgREST and PostgreSQL give, and the pieces the view
// relationships are read with. Expected values are the fuzzyset package's and PostgREST's
// documented examples, and PostgreSQL's rules for a missing column (parse_relation.c).

const states = ['Alabama', 'Alaska', 'Arizona', 'Arkansas', 'California', 'Colorado', 'Connecticut', 'Delaware', 'Florida',
  'Georgia', 'Hawaii', 'Idaho', 'Illinois', 'Indiana', 'Iowa', 'Kansas', 'Kentucky', 'Louisiana', 'Maine', 'Maryland',
  'Massachusetts', 'Michigan', 'Minnesota', 'Mississippi', 'Missouri', 'Montana', 'Nebraska', 'Nevada', 'New Hampshire',
  'New Jersey', 'New Mexico', 'New York', 'North Carolina', 'North Dakota', 'Ohio', 'Oklahoma', 'Oregon', 'Pennsylvania',
  'Rhode Island', 'South Carolina', 'South Dakota', 'Tennessee', 'Texas', 'Utah', 'Vermont', 'Virginia', 'Washington',
  'West Virginia', 'Wisconsin', 'Wyoming'];

describe('the closest name, as the fuzzyset package PostgREST uses finds it', () => {
  it.each([
    ['Why-oh-me-ing', 'Wyoming', 0.5384615384615384],
    ['Connect a cat', 'Connecticut', 0.6923076923076923],
    ['Transylvania', 'Pennsylvania', 0.75],
    ['CanOfSauce', 'Kansas', 0.4],
    ['Alaska', 'Alaska', 1],
    ['Alaskanbraskansas', 'Arkansas', 0.47058823529411764],
  ])('finds %s closest to %s (%f)', (query, best, score) => {
    const [first] = fuzzyMatches(states, query);
    expect(first?.value).toBe(best);
    expect(first?.score).toBeCloseTo(score, 12);
  });

  it('keeps every candidate scoring 0.33 or more, best first, and nothing below', () => {
    expect(fuzzyMatches(states, 'Transylvania').map((m) => m.value).sort()).toEqual(['Arkansas', 'California', 'Kansas', 'Pennsylvania']);
    const shaggy = fuzzyMatches(['Shaggy Rogers', 'Fred Jones', 'Daphne Blake', 'Velma Dinkley'], 'Shaggy Jones');
    expect(shaggy.map((m) => m.value)).toEqual(['Shaggy Rogers', 'Fred Jones']);
    expect(shaggy[0]?.score).toBeCloseTo(0.7692307692307693, 12);
    expect(shaggy[1]?.score).toBeCloseTo(0.5, 12);
  });

  it('answers PostgREST\'s documented hints: a table, a function, a parameter list', () => {
    expect(closestMatch(['directors', 'roles', 'actors'], 'role')).toBe('roles');
    expect(closestMatch(['test', 'another'], 'other')).toBe('another');
    expect(closestMatch(['test', 'another'], 'noclosealternative')).toBeNull();
    expect(closestMatch(['(name, param, val)', '(attr, id)'], '(nam, pqaram, vall)')).toBe('(name, param, val)');
    expect(closestMatch(['(name, param, val)', '(attr, id)'], '(attrs, id)')).toBe('(attr, id)');
  });
});

describe('PostgreSQL\'s hint for a column that does not exist', () => {
  const columns = ['id', 'director_id', 'title', 'year', 'rating', 'language'];
  it.each([
    ['titel', 'Perhaps you meant to reference the column "films.title".'],
    ['yaer', 'Perhaps you meant to reference the column "films.year".'],
    ['ia', 'Perhaps you meant to reference the column "films.id".'],
    // At most half the name's length may differ: "xy" is two away from "id", more than one.
    ['xy', null],
    // More than three edits is no suggestion.
    ['languages_spoken', null],
    ['nope', null],
  ])('for %s: %s', (name, hint) => {
    expect(missingColumnHint('films', name, columns)).toBe(hint);
  });

  it('names two columns at the same distance, and none when a third ties', () => {
    expect(missingColumnHint('t', 'ab', ['ax', 'ay'])).toBe('Perhaps you meant to reference the column "t.ax" or the column "t.ay".');
    expect(missingColumnHint('t', 'ab', ['ax', 'ay', 'az'])).toBeNull();
    // A closer column found after a tie wins again.
    expect(missingColumnHint('t', 'abcd', ['abxy', 'abyx', 'abcx'])).toBe('Perhaps you meant to reference the column "t.abcx".');
  });
});

describe('reading a view\'s query tree', () => {
  it('reads nodes, lists, nulls, escaped tokens and constants\' bytes', () => {
    const tree = parseNodeTree('({QUERY :targetList ({TARGETENTRY :expr {CONST :constvalue 4 [ 1 0 0 0 ]} :resno 1 :resname a\\ b :resorigtbl 16386 :resorigcol 2 :resjunk false}) :cteList <>})');
    expect(tree).toEqual([{
      node: 'QUERY',
      fields: new Map<string, unknown>([
        ['targetList', [{
          node: 'TARGETENTRY',
          fields: new Map<string, unknown>([
            ['expr', { node: 'CONST', fields: new Map([['constvalue', '4']]) }],
            ['resno', '1'], ['resname', 'a b'], ['resorigtbl', '16386'], ['resorigcol', '2'], ['resjunk', 'false'],
          ]),
        }]],
        ['cteList', null],
      ]),
    }]);
  });

  it('pairs each key column with every view column showing it', () => {
    expect(expandViewColumns([['id', ['id', 'film_id']], ['year', ['year']]])).toEqual([
      [['id', 'id'], ['year', 'year']],
      [['id', 'film_id'], ['year', 'year']],
    ]);
  });
});
