import { describe, expect, it } from 'vitest';
import { formatCurrency, formatRatio } from '../../../src/domain/format.ts';
import { amountPace, ratePace } from '../../../src/domain/pace.ts';

// A month of 25 work days, 10 of them complete, with a target of 100 hours a day (2,500 h).
describe('pace of an amount against its target', () => {
  it('is ahead when the month so far beats the target over the days complete', () => {
    // 1,200 h against 1,000 expected by now; 1,300 h left over 15 days is 86.67 a day.
    const pace = amountPace(1_200, 100, 10, 25, formatRatio, ' h');
    expect(pace).toMatchObject({ remainingDays: 15, pace: 'ahead', status: 'good' });
    expect(pace.needed).toBeCloseTo(86.667, 3);
    expect(pace.words).toBe('Ahead of pace by 200.0 h: needs 86.7 h a day on the 15 remaining work days.');
  });

  it('is behind, amber from 80% of where it should be and red below', () => {
    // 800 h against 1,000: 80%, amber; 1,700 h left over 15 days is 113.33 a day.
    const pace = amountPace(800, 100, 10, 25, formatRatio, ' h');
    expect(pace).toMatchObject({ pace: 'behind', status: 'warning' });
    expect(pace.needed).toBeCloseTo(113.333, 3);
    expect(amountPace(700, 100, 10, 25, formatRatio).status).toBe('behind');
  });

  it('says so when the target is reached early, when the month ends, and without a target', () => {
    expect(amountPace(2_600, 100, 20, 25, formatRatio, ' h')).toMatchObject({ pace: 'reached', needed: 0, status: 'good' });
    // Money: $420,000 short by $10,000 with no day left.
    expect(amountPace(410_000, 17_500, 24, 24, formatCurrency)).toMatchObject({ pace: 'missed', needed: null, status: 'behind', words: 'Month complete, $10,000 short of $420,000.' });
    expect(amountPace(500, null, 10, 25, formatRatio)).toMatchObject({ pace: 'no-target', status: 'no-target' });
    expect(amountPace(0, 100, 0, 25, formatRatio)).toMatchObject({ remainingDays: 25, needed: 100, status: 'no-data' });
  });
});

describe('pace of a labour rate against its target', () => {
  it('projects the remaining hours at the pace so far and finds the rate they need', () => {
    // $18,000 over 100 h is $180 against $185. 10 h a day for 15 more days: 150 h.
    // (185 × 250 − 18,000) / 150 = 28,250 / 150 = 188.33.
    const pace = ratePace(18_000, 100, 185, 10, 25);
    expect(pace).toMatchObject({ pace: 'behind', status: 'warning', remainingDays: 15 });
    expect(pace.needed).toBeCloseTo(188.333, 3);
    expect(pace.words).toBe('Behind the $185 target: needs $188 an hour on about 150.0 h still to come.');
    // $19,000: already $190 an hour; (46,250 − 19,000) / 150 = 181.67 keeps it on target.
    const ahead = ratePace(19_000, 100, 185, 10, 25);
    expect(ahead).toMatchObject({ pace: 'ahead', status: 'good' });
    expect(ahead.needed).toBeCloseTo(181.667, 3);
  });

  it('ends with the month, and needs hours to say anything', () => {
    expect(ratePace(18_000, 100, 185, 25, 25)).toMatchObject({ pace: 'missed', needed: null });
    expect(ratePace(19_000, 100, 185, 25, 25)).toMatchObject({ pace: 'reached', status: 'good' });
    expect(ratePace(0, 0, 185, 0, 25)).toMatchObject({ pace: 'no-data' });
    expect(ratePace(100, 1, null, 1, 25)).toMatchObject({ pace: 'no-target' });
  });
});
