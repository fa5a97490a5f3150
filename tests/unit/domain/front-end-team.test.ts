import { describe, expect, it } from 'vitest';
import {
  addUp,
  comparison,
  npsPercent,
  opCodeFields,
  opCodeShare,
  projectToMonthEnd,
  scoreCard,
  scoreCardTargets,
  surveyStatus,
} from '../../../src/domain/front-end-team.ts';

describe('adding up an advisor month', () => {
  it('sums each field over the month’s rows; unreadable values count as 0, a field nobody filled stays empty', () => {
    const rows = [
      { total_ros: 10, labour_sales: '1000.50' },
      { total_ros: null, labour_sales: 'abc' },
      { total_ros: '5', other: 99 },
    ];
    expect(addUp(rows, ['total_ros', 'labour_sales', 'cp_ros'])).toEqual({ total_ros: 15, labour_sales: 1000.5, cp_ros: null });
    expect(addUp([], ['total_ros'])).toEqual({ total_ros: null });
    expect(addUp([{ total_ros: 0 }], ['total_ros'])).toEqual({ total_ros: 0 });
  });
});

describe('the score card', () => {
  // Worked by hand: $66,200 parts and labour over 100 ROs is $662 per RO, and so on.
  const month = { parts_labour: 66200, labour_sales: 36000, total_ros: 100, total_hours: 240, cp_ros: 60, cp_hours: 150 };
  it('divides the month’s figures as the column names say', () => {
    expect(scoreCard(month, 2)).toEqual({
      totalSalesPerRo: 662,
      rosPerDay: 50,
      labourPerRo: 360,
      labourPerDay: 18000,
      elr: 150,
      cpRosPerDay: 30,
      cpHoursPerRo: 2.5,
    });
  });
  it('reads 0 wherever there is nothing to divide by (no days, ROs or hours yet)', () => {
    expect(scoreCard({}, 0)).toEqual({ totalSalesPerRo: 0, rosPerDay: 0, labourPerRo: 0, labourPerDay: 0, elr: 0, cpRosPerDay: 0, cpHoursPerRo: 0 });
    expect(scoreCard({ labour_sales: 500 }, 0).labourPerDay).toBe(0);
  });
});

describe('score card targets', () => {
  it('uses the standing targets when the month has none: $662, 50, $360, $18,000, 30, 2.5, and no ELR', () => {
    expect(scoreCardTargets(undefined)).toEqual({ totalSalesPerRo: 662, rosPerDay: 50, labourPerRo: 360, labourPerDay: 18000, elr: null, cpRosPerDay: 30, cpHoursPerRo: 2.5 });
  });
  it('takes a stored value over the standing one, and keeps the standing one for an empty column', () => {
    const targets = scoreCardTargets({ ros_per_day: '42.00', elr: 155, labour_per_ro: null });
    expect(targets).toMatchObject({ rosPerDay: 42, elr: 155, labourPerRo: 360 });
  });
  it.each([
    [100, 100, 100, 'good'],
    [85, 100, 85, 'warning'],
    [40, 100, 40, 'behind'],
    [0, 100, 0, 'no-data'],
    [50, null, null, 'no-target'],
    [50, 0, null, 'no-target'],
  ] as const)('%d against %s is %s%% (%s)', (actual, target, percent, status) => {
    expect(comparison(actual, target)).toMatchObject({ percent, status });
  });
});

describe('projecting to the month end', () => {
  it.each([
    [10000, 50, 20000],
    [9000, 75, 12000],
    [9000, 100, 9000],
    [9000, 0, null],
  ])('%d at %d%% complete projects to %s', (value, complete, projected) => {
    expect(projectToMonthEnd(value, complete)).toBe(projected);
  });
});

describe('op code shares against the goals', () => {
  const alignments = opCodeFields[0];
  it('has the goals of the spec, in its order', () => {
    expect(opCodeFields.map((f) => f.low)).toEqual([6, 14, 2, 12, 6, 6, 2, 5]);
    expect(opCodeFields.map((f) => f.target)).toEqual([10, 15, 5, 20, 5, 6, 4, 6]);
  });
  it.each([
    [10, 100, 10, 'good'], // alignments: target 10%
    [8, 100, 8, 'warning'], // between the low goal (6%) and the target
    [6, 100, 6, 'warning'],
    [5, 100, 5, 'behind'],
    [0, 100, 0, 'behind'],
    [3, 0, null, 'no-data'],
  ] as const)('%d of %d ROs: %s%%, %s', (count, ros, percent, status) => {
    expect(opCodeShare(count, ros, alignments)).toEqual({ percent, status });
  });
});

describe('surveys against the goals', () => {
  it.each([
    [50, 50, 'good'],
    [49, 50, 'warning'],
    [19, 50, 'warning'], // the 19% baseline
    [18.9, 50, 'behind'],
    [null, 80, 'no-data'],
  ] as const)('%s%% against %d%%: %s', (percent, target, status) => {
    expect(surveyStatus(percent, target)).toBe(status);
  });
  it.each([
    ['82', 82],
    [' 74% ', 74],
    ['', null],
    [null, null],
    ['n/a', null],
  ] as const)('reads NPS %j as %s', (typed, percent) => {
    expect(npsPercent(typed)).toBe(percent);
  });
});
