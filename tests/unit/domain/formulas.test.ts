import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formulas, working } from '../../../src/domain/formulas.ts';

describe('the formulas', () => {
  it('are the ones docs/figures.md describes, word for word', () => {
    const docs = readFileSync(path.join(import.meta.dirname, '../../../docs/figures.md'), 'utf8');
    const missing = Object.values(formulas).filter((formula) => !docs.includes(`\`${formula}\``));
    expect(missing).toEqual([]);
  });

  it('lead each working, followed by the numbers and the result', () => {
    expect(working('cpElr', '$12,450.00 / 68.2 h', '$182.55')).toBe('CP ELR = CP sales / CP hours = $12,450.00 / 68.2 h = $182.55');
    expect(working('categoryHours', null, '41.5 h')).toBe("Hours = the sum of the days' hours = 41.5 h");
  });
});
