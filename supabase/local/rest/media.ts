/**
 * Content negotiation as PostgREST 12 does it (MediaType.hs, negotiateContent): JSON
 * arrays (optionally with nulls stripped), single objects, CSV, GeoJSON (PostGIS's
 * ST_AsGeoJSON of each row, so it needs PostGIS, as in PostgREST), and the execution plan
 * (`application/vnd.pgrst.plan+text|json; for="..."; options=analyze|...`), which is
 * offered only when plans are enabled. Anything else is 406 PGRST107.
 */
import { RestError } from './errors.ts';

export type PlanOption = 'analyze' | 'verbose' | 'settings' | 'buffers' | 'wal';

export type Media =
  | { kind: 'array'; stripNulls: boolean }
  | { kind: 'object'; stripNulls: boolean }
  | { kind: 'csv' }
  | { kind: 'geojson' }
  | { kind: 'plan'; format: 'text' | 'json'; for: Exclude<Media, { kind: 'plan' }>; options: PlanOption[] };

const planOptions: PlanOption[] = ['analyze', 'verbose', 'settings', 'buffers', 'wal'];

type Parsed = { type: string; params: Map<string, string>; q: number; raw: string };

function parseOne(raw: string): Parsed {
  const [type = '', ...rest] = raw.split(';');
  const params = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim().replace(/^"|"$/g, ''));
  }
  const q = Number(params.get('q') ?? '1');
  return { type: type.trim().toLowerCase(), params, q: Number.isFinite(q) ? q : 0, raw: raw.trim() };
}

/** Splits an Accept header on commas outside quotes. */
function splitAccept(header: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < header.length; i += 1) {
    if (header[i] === '"') quoted = !quoted;
    else if (header[i] === ',' && !quoted) {
      parts.push(header.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(header.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

function plain(type: string, params: Map<string, string>): Exclude<Media, { kind: 'plan' }> | null {
  const stripNulls = params.get('nulls') === 'stripped';
  if (type === 'application/json' || type === '*/*' || type === 'application/*') return { kind: 'array', stripNulls: false };
  if (type === 'application/vnd.pgrst.array+json' || type === 'application/vnd.pgrst.array') return { kind: 'array', stripNulls };
  if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object') return { kind: 'object', stripNulls };
  if (type === 'text/csv') return { kind: 'csv' };
  if (type === 'application/geo+json') return { kind: 'geojson' };
  return null;
}

function decode(accept: Parsed, planEnabled: boolean): Media | null {
  const plan = /^application\/vnd\.pgrst\.plan(\+(text|json))?$/.exec(accept.type);
  if (!plan) return plain(accept.type, accept.params);
  if (!planEnabled) return null;
  const forType = plain((accept.params.get('for') ?? 'application/json').toLowerCase(), new Map());
  if (!forType) return null;
  const given = (accept.params.get('options') ?? '').split('|').map((o) => o.trim().toLowerCase());
  return { kind: 'plan', format: plan[2] === 'json' ? 'json' : 'text', for: forType, options: planOptions.filter((o) => given.includes(o)) };
}

/** The media type a response takes, from the request's Accept header. */
export function negotiate(header: string | undefined, planEnabled: boolean): Media {
  if (!header?.trim()) return { kind: 'array', stripNulls: false };
  const accepted = splitAccept(header)
    .map(parseOne)
    .filter((a) => a.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const accept of accepted) {
    const media = decode(accept, planEnabled);
    if (media) return media;
  }
  throw new RestError(406, 'PGRST107', `None of these media types are available: ${accepted.map((a) => a.raw).join(', ') || header.trim()}`);
}

function mime(media: Media): string {
  switch (media.kind) {
    case 'array':
      return media.stripNulls ? 'application/vnd.pgrst.array+json; nulls=stripped' : 'application/json';
    case 'object':
      return `application/vnd.pgrst.object+json${media.stripNulls ? '; nulls=stripped' : ''}`;
    case 'csv':
      return 'text/csv';
    case 'geojson':
      return 'application/geo+json';
    case 'plan':
      return `application/vnd.pgrst.plan+${media.format}; for="${mime(media.for)}"${media.options.length ? `; options=${media.options.join('|')}` : ''}`;
  }
}

export const contentType = (media: Media) => `${mime(media)}; charset=utf-8`;
