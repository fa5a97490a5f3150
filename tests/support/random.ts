/**
 * The tests' one seeded random source: the same seed gives the same sequence, so a
 * failure found by a generated case (a fuzzed request, a dropped reply, a network cut)
 * reproduces by running the same test again.
 */

export type Random = {
  /** A number in [0, 1). */
  next(): number;
  one<T>(list: readonly T[]): T;
  chance(p: number): boolean;
  /** A whole number from `min` to `max`, both included. */
  int(min: number, max: number): number;
};

/** A linear congruential generator (Numerical Recipes' constants), read from its high bits. */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    next,
    one: (list) => list[Math.floor(next() * list.length)] as (typeof list)[number],
    chance: (p) => next() < p,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
  };
}
