/**
 * Which function `/rpc/<name>` calls, as PostgREST 12's findProc (Plan.hs) chooses among
 * the callable overloads of that name: the one whose named parameters the argument keys
 * fit (every required parameter given, nothing unknown), else, for a JSON POST, one taking
 * a single unnamed json or jsonb parameter (the whole body). None is 404 PGRST202 with
 * PostgREST's "Perhaps you meant" hint, several 300 PGRST203 listing them.
 */
import { RestError } from './errors.ts';
import { closestMatch } from './fuzzy-set.ts';
import type { DbFunction, SchemaCache } from './schema-cache.ts';

export type Lookup = {
  schema: string;
  name: string;
  keys: string[];
  /** A POST: a function of one unnamed json/jsonb parameter may take the whole body. */
  isPost: boolean;
  /** `Prefer: params=single-object`: only a function of one json/jsonb parameter fits. */
  singleObject: boolean;
};

const isJson = (type: string | undefined) => type === 'json' || type === 'jsonb';

function fits(fn: DbFunction, keys: Set<string>, lookup: Lookup): boolean {
  const { params } = fn;
  if (lookup.singleObject) return params.length === 1 && isJson(params[0]?.type);
  if (params.length === 0) return keys.size === 0;
  const required = params.filter((p) => p.required).map((p) => p.name);
  const optional = new Set(params.filter((p) => !p.required).map((p) => p.name));
  return required.every((name) => keys.has(name)) && [...keys].every((key) => optional.has(key) || required.includes(key));
}

const takesWholeBody = (fn: DbFunction, lookup: Lookup) =>
  lookup.isPost && fn.params.length === 1 && fn.params[0]?.name === '' && isJson(fn.params[0]?.type);

const signature = (fn: DbFunction) => `${fn.schema}.${fn.name}(${fn.params.map((p) => `${p.name} => ${p.type}`).join(', ')})`;

const sortedList = (names: string[]) => `(${[...names].sort().join(', ')})`;

/** PostgREST's noRpcHint: the closest function of the schema, or the closest parameter list of its overloads. */
function noFunctionHint(cache: SchemaCache, lookup: Lookup, overloads: DbFunction[]): string | null {
  const prefix = `Perhaps you meant to call the function ${lookup.schema}.`;
  if (overloads.length === 0) {
    const names = [...(cache.bySchema.get(lookup.schema)?.functions.entries() ?? [])]
      .filter(([, fns]) => fns.some((fn) => fn.callable))
      .map(([name]) => name);
    const closest = closestMatch(names, lookup.name);
    return closest === null ? null : `${prefix}${closest}`;
  }
  const lists = overloads.map((fn) => sortedList(fn.params.map((p) => p.name)));
  const closest = closestMatch(lists, sortedList(lookup.keys));
  return closest === null ? null : `${prefix}${lookup.name}${closest}`;
}

function noFunction(cache: SchemaCache, lookup: Lookup, overloads: DbFunction[]): RestError {
  const fn = `${lookup.schema}.${lookup.name}`;
  const keys = [...lookup.keys].sort();
  const given = keys.join(', ');
  const plural = keys.length > 1 ? 's' : '';
  const message = lookup.singleObject ? '' : keys.length ? `(${given})` : ' without parameters';
  let searched = lookup.singleObject ? ' with a single json/jsonb parameter' : keys.length ? ` with parameter${plural} ${given}` : ' without parameters';
  if (!lookup.singleObject && lookup.isPost) searched += ' or with a single unnamed json/jsonb parameter';
  return new RestError(404, 'PGRST202', `Could not find the function ${fn}${message} in the schema cache`,
    `Searched for the function ${fn}${searched}, but no matches were found in the schema cache.`,
    lookup.singleObject ? null : noFunctionHint(cache, lookup, overloads));
}

function ambiguous(found: DbFunction[]): RestError {
  return new RestError(300, 'PGRST203', `Could not choose the best candidate function between: ${found.map(signature).join(', ')}`, null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved');
}

/** The function to call, and whether it takes the whole body (or query) as its one argument. */
export function findFunction(cache: SchemaCache, lookup: Lookup): { fn: DbFunction; positional: boolean } {
  const overloads = (cache.bySchema.get(lookup.schema)?.functions.get(lookup.name) ?? []).filter((fn) => fn.callable);
  const keys = new Set(lookup.keys);
  const named = overloads.filter((fn) => fits(fn, keys, lookup));
  const fallback = overloads.filter((fn) => !fits(fn, keys, lookup) && takesWholeBody(fn, lookup));
  const found = named.length ? named : fallback;
  if (found.length > 1) throw ambiguous(found);
  const fn = found[0];
  if (!fn) throw noFunction(cache, lookup, overloads);
  // One parameter, unnamed (or any, with params=single-object): the whole body or query is its argument.
  const positional = fn.params.length === 1 && (lookup.singleObject || fn.params[0]?.name === '');
  return { fn, positional };
}
