/** Dates for RLS test rows, far from the demo seed's months so keys never collide. */

/** The n-th day of March 2031 as yyyy-MM-dd, with its calendar columns. */
export function day2031(n: number) {
  const date = new Date(Date.UTC(2031, 2, n));
  const jsDay = date.getUTCDay();
  return {
    entry_date: date.toISOString().slice(0, 10),
    year: 2031,
    month: 3,
    day_of_week_iso: jsDay === 0 ? 7 : jsDay,
  };
}

/** The n-th Sunday-to-Saturday week starting in 2031. 2031-01-05 is a Sunday. */
export function week2031(n: number) {
  const start = new Date(Date.UTC(2031, 0, 5 + 7 * n));
  const end = new Date(start.getTime() + 6 * 86_400_000);
  return {
    year: 2031,
    week_start_date: start.toISOString().slice(0, 10),
    week_end_date: end.toISOString().slice(0, 10),
  };
}
