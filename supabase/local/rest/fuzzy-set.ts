/**
 * The closest name to a misspelt one, as PostgREST 12 finds it for its "Perhaps you
 * meant ..." hints (the fuzzyset 0.2 package it uses): candidates scored by the cosine of
 * their character n-gram counts (trigrams, else bigrams, of the lower-cased name kept to
 * letters, digits, spaces and commas, between dashes), the best fifty rescored by
 * normalised Levenshtein similarity, the best at 0.33 or more winning. An exact match
 * (ignoring case) wins outright.
 */

const minScore = 0.33;
const rescored = 50;

function normalized(text: string): string {
  return [...text.toLowerCase()].filter((ch) => /[\p{L}\p{N}\s,]/u.test(ch)).join('');
}

function gramCounts(text: string, size: number): Map<string, number> {
  const chars = [...`-${normalized(text)}-`];
  const counts = new Map<string, number>();
  for (let i = 0; i + size <= chars.length; i += 1) {
    const gram = chars.slice(i, i + size).join('');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

const magnitude = (counts: Map<string, number>) => Math.sqrt([...counts.values()].reduce((sum, n) => sum + n * n, 0));

/** Edit distance (insert, delete, substitute each 1) between two strings, by code point. */
export function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= y.length; j += 1) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = current;
  }
  return previous[y.length] as number;
}

function similarity(a: string, b: string): number {
  const longest = Math.max([...a].length, [...b].length);
  // (longest - d) / longest rather than 1 - d / longest: the same value computed exactly
  // enough that 1/3 is not read as just below the 0.33 threshold's neighbourhood.
  return longest === 0 ? 1 : (longest - levenshtein(a, b)) / longest;
}

function matchesOfSize(candidates: string[], query: string, size: number): Array<{ score: number; value: string }> {
  const wanted = gramCounts(query, size);
  const wantedMagnitude = magnitude(wanted);
  const scored: Array<{ score: number; value: string }> = [];
  for (const value of candidates) {
    const counts = gramCounts(value.toLowerCase(), size);
    let dot = 0;
    for (const [gram, n] of wanted) dot += n * (counts.get(gram) ?? 0);
    if (dot > 0) scored.push({ score: dot / (wantedMagnitude * magnitude(counts)), value });
  }
  scored.sort((a, b) => b.score - a.score);
  const key = query.toLowerCase();
  return scored
    .slice(0, rescored)
    .map(({ value }) => ({ score: similarity(key, value.toLowerCase()), value }))
    .sort((a, b) => b.score - a.score)
    .filter((m) => m.score >= minScore);
}

/** Every candidate close enough to `query`, best first, with its score (1 for an exact match). */
export function fuzzyMatches(candidates: Iterable<string>, query: string): Array<{ score: number; value: string }> {
  const unique = [...new Set(candidates)];
  const exact = unique.find((c) => c.toLowerCase() === query.toLowerCase());
  if (exact !== undefined) return [{ score: 1, value: exact }];
  for (const size of [3, 2]) {
    const found = matchesOfSize(unique, query, size);
    if (found.length) return found;
  }
  return [];
}

/** The candidate closest to `query`, or null when none is close enough. */
export function closestMatch(candidates: Iterable<string>, query: string): string | null {
  return fuzzyMatches(candidates, query)[0]?.value ?? null;
}
