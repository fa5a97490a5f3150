/**
 * The `Prefer` header as PostgREST 12 reads it (ApiRequest/Preferences.hs): several
 * headers or comma-separated values, the first of each kind wins, `tx=` counts only
 * where db-tx-end allows an override, anything unknown is collected so that
 * `handling=strict` can refuse it (PGRST122), and `Preference-Applied` names what was
 * honoured for each kind of request.
 */
import { RestError } from './errors.ts';

export type Preferences = {
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  representation?: 'full' | 'none' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  tx?: 'commit' | 'rollback';
  missing?: 'default' | 'null';
  handling?: 'strict' | 'lenient';
  maxAffected?: number;
  params?: 'single-object';
  invalid: string[];
};

const known: Record<string, Partial<Preferences>> = {
  'resolution=merge-duplicates': { resolution: 'merge-duplicates' },
  'resolution=ignore-duplicates': { resolution: 'ignore-duplicates' },
  'return=representation': { representation: 'full' },
  'return=minimal': { representation: 'none' },
  'return=headers-only': { representation: 'headers-only' },
  'count=exact': { count: 'exact' },
  'count=planned': { count: 'planned' },
  'count=estimated': { count: 'estimated' },
  'tx=commit': { tx: 'commit' },
  'tx=rollback': { tx: 'rollback' },
  'missing=default': { missing: 'default' },
  'missing=null': { missing: 'null' },
  'handling=strict': { handling: 'strict' },
  'handling=lenient': { handling: 'lenient' },
  'params=single-object': { params: 'single-object' },
};

/** Reads every Prefer value; `txOverride` says whether db-tx-end lets `tx=` decide. */
export function readPreferences(header: string | undefined, txOverride: boolean): Preferences {
  const prefs: Preferences = { invalid: [] };
  const values = (header ?? '').split(',').map((v) => v.trim()).filter(Boolean);
  for (const value of values) {
    const pref = known[value];
    if (pref) {
      for (const [key, v] of Object.entries(pref) as Array<[keyof Preferences, never]>) {
        if (key === 'tx' && !txOverride) continue;
        if (prefs[key] === undefined) prefs[key] = v;
      }
      continue;
    }
    // max-affected=N takes a whole number; a timezone is not offered here, so it is an unknown preference.
    const max = /^max-affected=(-?\d{1,18})$/.exec(value);
    if (max) {
      prefs.maxAffected ??= Number(max[1]);
      continue;
    }
    if (value.startsWith('max-affected=')) continue;
    prefs.invalid.push(value);
  }
  return prefs;
}

/** Refuses unknown preferences when the client asked for strict handling. */
export function checkStrict(prefs: Preferences): void {
  if (prefs.handling === 'strict' && prefs.invalid.length) {
    throw new RestError(400, 'PGRST122', 'Invalid preferences given with handling=strict',
      `Invalid preferences: ${prefs.invalid.map((p) => p.slice(0, 100)).join(', ')}`);
  }
}

export type RequestKind = 'read' | 'create' | 'update' | 'delete' | 'rpc';

/** The Preference-Applied header for `kind`, in PostgREST's order; none when nothing applied. */
export function appliedHeader(prefs: Preferences, kind: RequestKind, resolutionApplies = true): Record<string, string> {
  const representation = { full: 'return=representation', none: 'return=minimal', 'headers-only': 'return=headers-only' };
  const parts = [
    kind === 'create' && resolutionApplies && prefs.resolution ? `resolution=${prefs.resolution}` : null,
    (kind === 'create' || kind === 'update') && prefs.missing ? `missing=${prefs.missing}` : null,
    kind !== 'read' && kind !== 'rpc' && prefs.representation ? representation[prefs.representation] : null,
    kind === 'rpc' && prefs.params ? `params=${prefs.params}` : null,
    prefs.count ? `count=${prefs.count}` : null,
    prefs.tx ? `tx=${prefs.tx}` : null,
    prefs.handling ? `handling=${prefs.handling}` : null,
    (kind === 'update' || kind === 'delete' || kind === 'rpc') && prefs.handling === 'strict' && prefs.maxAffected !== undefined
      ? `max-affected=${prefs.maxAffected}`
      : null,
  ].filter((p): p is string => p !== null);
  return parts.length ? { 'Preference-Applied': parts.join(', ') } : {};
}
