/**
 * The declared schema: the SQL files of supabase/schemas, in the order supabase/config.toml
 * lists them under [db.migrations] schema_paths, read as the Supabase CLI reads them (each
 * entry a path or a glob relative to supabase/, the files a glob matches in name order, a
 * file named twice applied once, an entry that matches nothing an error), and applied to a
 * database that has had supabase/local/bootstrap.sql, as `supabase db diff` applies them to
 * its shadow database. docs/schema.md says how the files are laid out.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../../supabase/local/db/database.ts';

export const supabaseDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../supabase');

/**
 * The string array `key` of the TOML table `[table]`: enough of TOML for this one setting
 * (a quoted string per item, on one line or several, with comments between).
 */
export function tomlStringArray(toml: string, table: string, key: string): string[] | null {
  let inTable = false;
  const lines = toml.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = (lines[i] ?? '').trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      inTable = header[1]?.trim() === table;
      continue;
    }
    if (!inTable || !line.startsWith(`${key}`)) continue;
    const rest = line.slice(key.length).trimStart();
    if (!rest.startsWith('=')) continue;
    let text = rest.slice(1);
    while (!text.includes(']') && i + 1 < lines.length) text += `\n${lines[(i += 1)]}`;
    const body = text.slice(text.indexOf('[') + 1, text.lastIndexOf(']'));
    const items: string[] = [];
    for (const raw of body.split('\n')) {
      const withoutComment = raw.replace(/#.*$/, '');
      for (const match of withoutComment.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)) items.push(match[1] ?? match[2] ?? '');
    }
    return items;
  }
  return null;
}

/** Go's path.Match for one path segment: `*` and `?` never cross a `/`. */
function segmentPattern(glob: string): RegExp {
  let source = '';
  for (const char of glob) {
    if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if ('[]{}'.includes(char)) throw new Error(`schema_paths: "${glob}" uses ${char}, which this reader does not take; list the files or use * and ?`);
    else source += char.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

async function expand(pattern: string, baseDir: string): Promise<string[]> {
  const parts = path.posix.normalize(pattern).split('/').filter((part) => part !== '' && part !== '.');
  let found = [baseDir];
  for (const part of parts) {
    const next: string[] = [];
    for (const dir of found) {
      if (!/[*?]/.test(part)) {
        const candidate = path.join(dir, part);
        if (await stat(candidate).then(() => true, () => false)) next.push(candidate);
        continue;
      }
      const matcher = segmentPattern(part);
      const entries = await readdir(dir).catch(() => [] as string[]);
      for (const entry of entries.sort()) if (matcher.test(entry)) next.push(path.join(dir, entry));
    }
    found = next;
  }
  const files: string[] = [];
  for (const file of found) if ((await stat(file)).isFile()) files.push(file);
  return files.sort();
}

/** The schema files in the order they are applied, as absolute paths. */
export async function declaredSchemaFiles(dir = supabaseDir): Promise<string[]> {
  const config = await readFile(path.join(dir, 'config.toml'), 'utf8');
  const patterns = tomlStringArray(config, 'db.migrations', 'schema_paths');
  if (!patterns || patterns.length === 0) throw new Error(`${path.join(dir, 'config.toml')} lists no [db.migrations] schema_paths`);
  const files: string[] = [];
  for (const pattern of patterns) {
    const matches = await expand(pattern, dir);
    if (matches.length === 0) throw new Error(`schema_paths: no file matches "${pattern}"`);
    for (const file of matches) if (!files.includes(file)) files.push(file);
  }
  return files;
}

/** A schema file that failed to apply, named with Postgres' own message. */
export class SchemaFileError extends Error {
  constructor(readonly file: string, cause: unknown) {
    super(`${path.relative(process.cwd(), file)}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** Applies every schema file, each in its own transaction, to a bootstrapped database. */
export async function applyDeclaredSchema(db: Database, dir = supabaseDir): Promise<string[]> {
  const files = await declaredSchemaFiles(dir);
  for (const file of files) {
    const sql = await readFile(file, 'utf8');
    try {
      await db.transaction((tx) => tx.exec(sql));
    } catch (error) {
      throw new SchemaFileError(file, error);
    }
  }
  return files;
}
