import { describe, expect, it } from 'vitest';
import { numberLimitOf } from '../../../src/domain/field-rules.ts';
import { parseNumberInput } from '../../../src/domain/number-input.ts';

// The fields, by kind, with the range each message must state (written out by hand).
const fields = {
  hours: { limit: numberLimitOf('daily_inputs', 'value', { metric_type: 'hours' }), label: 'CP Hours 2026-11-03', range: 'a number from 0 to 1,000' },
  sales: { limit: numberLimitOf('daily_inputs', 'value', { metric_type: 'sales' }), label: 'CP Sales 2026-11-03', range: 'a number from 0 to 500,000' },
  gross: { limit: numberLimitOf('monthly_labor_gross_inputs', 'gross_value'), label: 'Gross UNAPPLIED TIME', range: 'a number from -10,000,000 to 10,000,000' },
  days: { limit: numberLimitOf('weekly_store_performance', 'days_complete'), label: 'Days Complete Week 2', range: 'a whole number from 0 to 7' },
  count: { limit: numberLimitOf('front_end_team_advisor_totals', 'total_ros'), label: 'Total ROs Sam Carter', range: 'a whole number from 0 to 100,000' },
  percent: { limit: numberLimitOf('advisor_survey_data', 'email_penetration'), label: 'Email Penetration Sam Carter', range: 'a number from 0 to 100' },
  rate: { limit: numberLimitOf('store_settings', 'labour_rate'), label: 'Labour Rate', range: 'a number from 0 to 1,000' },
  headcount: { limit: numberLimitOf('store_settings', 'stalls'), label: 'Stalls', range: 'a whole number from 0 to 1,000' },
  workDaysTarget: { limit: numberLimitOf('monthly_targets', 'target_value', { metric_key: 'daysComplete' }), label: 'Work Days in Month', range: 'a whole number from 0 to 31' },
} as const;

type Field = keyof typeof fields;
const accepted = (value: number | null) => ({ ok: true, value });

describe('reading a typed number against its field limit', () => {
  const cases: Array<[Field, string, ReturnType<typeof accepted> | string]> = [
    // Plain numbers, commas as thousands separators, empty as no value.
    ['hours', '', accepted(null)],
    ['hours', '   ', accepted(null)],
    ['hours', '7.5', accepted(7.5)],
    ['hours', ' 12 ', accepted(12)],
    ['hours', '0', accepted(0)],
    ['hours', '-0', accepted(0)],
    ['hours', '1000', accepted(1000)],
    ['hours', '1,000', accepted(1000)],
    ['hours', '.5', accepted(0.5)],
    ['hours', '12.', accepted(12)],
    ['hours', '7.50', accepted(7.5)],
    ['sales', '17,500', accepted(17500)],
    ['sales', '17,500.25', accepted(17500.25)],
    ['sales', '500000', accepted(500000)],
    ['gross', '-2,100', accepted(-2100)],
    ['gross', '-10,000,000', accepted(-10000000)],
    ['days', '7', accepted(7)],
    ['days', '6.0', accepted(6)],
    ['count', '412', accepted(412)],
    ['percent', '62.5', accepted(62.5)],
    ['rate', '189.95', accepted(189.95)],
    ['headcount', '+3', accepted(3)],
    ['workDaysTarget', '25', accepted(25)],
    // Out of range: negative where it means nothing, over the sane maximum.
    ['hours', '-5', 'enter RANGE'],
    ['hours', '1000.01', 'enter RANGE'],
    ['hours', '24000', 'enter RANGE'],
    ['sales', '500,000.01', 'enter RANGE'],
    ['gross', '-10,000,000.01', 'enter RANGE'],
    ['percent', '101', 'enter RANGE'],
    ['days', '8', 'enter RANGE'],
    ['workDaysTarget', '32', 'enter RANGE'],
    ['count', '-1', 'enter RANGE'],
    // 20 digits: a float would round them; out of range anyway, said so rather than stored.
    ['sales', '12345678901234567890', 'enter RANGE'],
    ['sales', '12,345,678,901,234,567,890', 'enter RANGE'],
    ['hours', '9'.repeat(400), 'enter RANGE'],
    // Whole-number fields.
    ['days', '2.5', 'enter RANGE'],
    ['headcount', '3.2', 'enter RANGE'],
    ['count', '12.50', 'enter RANGE'],
    // More decimals than the field keeps.
    ['hours', '7.555', 'enter RANGE with at most 2 decimals'],
    ['rate', '0.001', 'enter RANGE with at most 2 decimals'],
    ['hours', '1.0000000000000001', 'enter RANGE with at most 2 decimals'],
    // Not plain numbers at all.
    ['hours', 'lots', '"lots" is not a number; enter RANGE'],
    ['hours', '1e309', '"1e309" is not a number; enter RANGE'],
    ['hours', '-1e309', '"-1e309" is not a number; enter RANGE'],
    ['hours', '1e3', '"1e3" is not a number; enter RANGE'],
    ['hours', 'NaN', '"NaN" is not a number; enter RANGE'],
    ['hours', 'Infinity', '"Infinity" is not a number; enter RANGE'],
    ['hours', '0x10', '"0x10" is not a number; enter RANGE'],
    ['hours', '😀', '"😀" is not a number; enter RANGE'],
    ['hours', '7😀', '"7😀" is not a number; enter RANGE'],
    ['hours', '-', '"-" is not a number; enter RANGE'],
    ['hours', '.', '"." is not a number; enter RANGE'],
    ['hours', '1.2.3', '"1.2.3" is not a number; enter RANGE'],
    ['hours', '7 5', '"7 5" is not a number; enter RANGE'],
    ['sales', '$17,500', '"$17,500" is not a number; enter RANGE'],
    ['percent', '45%', '"45%" is not a number; enter RANGE'],
    // A comma that is not a thousands separator (a decimal comma) is refused, not read as 15.
    ['hours', '1,5', '"1,5" is not a number; enter RANGE'],
    ['sales', '17,50', '"17,50" is not a number; enter RANGE'],
    ['sales', '1,7500', '"1,7500" is not a number; enter RANGE'],
    // A long paste is shown by its start.
    ['hours', 'x'.repeat(50), `"${'x'.repeat(24)}…" is not a number; enter RANGE`],
  ];

  it.each(cases)('%s field, typed "%s"', (kind, typed, outcome) => {
    const field = fields[kind];
    const expected = typeof outcome === 'string' ? { ok: false, message: `${field.label}: ${outcome.replace('RANGE', field.range)}.` } : outcome;
    expect(parseNumberInput(typed, field.limit, field.label)).toEqual(expected);
  });

  it('says it in the words a person reads at the cell', () => {
    expect(parseNumberInput('25', fields.days.limit, 'Work Days Week 1')).toEqual({
      ok: false,
      message: 'Work Days Week 1: enter a whole number from 0 to 7.',
    });
  });
});
