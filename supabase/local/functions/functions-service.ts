/**
 * Edge functions (`/functions/v1/<name>`): serves supabase/functions/<name>/index.ts,
 * whose default export is a `(Request) => Promise<Response>` handler, with the URL and
 * keys in its environment as hosted Supabase provides them.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Reply } from '../http.ts';
import { jsonReply } from '../http.ts';
import { log } from '../logger.ts';
import type { StackRequest } from '../request.ts';

export type FunctionsOptions = {
  functionsDir: string;
  env: { SUPABASE_URL: string; SUPABASE_ANON_KEY: string; SUPABASE_SERVICE_ROLE_KEY: string };
};

type Handler = (req: Request) => Promise<Response>;

export function createFunctionsService(options: FunctionsOptions) {
  const handlers = new Map<string, Handler>();

  async function load(name: string): Promise<Handler | null> {
    const cached = handlers.get(name);
    if (cached) return cached;
    const file = path.join(options.functionsDir, name, 'index.ts');
    try {
      await access(file);
    } catch {
      return null;
    }
    const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
    if (typeof module.default !== 'function') throw new Error(`${file} has no default export handler`);
    handlers.set(name, module.default as Handler);
    return module.default as Handler;
  }

  async function route(req: StackRequest): Promise<Reply> {
    const name = /^\/([A-Za-z0-9][A-Za-z0-9_-]*)\/?$/.exec(req.path)?.[1];
    const handler = name ? await load(name) : null;
    // Hosted Supabase's answer for a function that does not exist.
    if (!handler) return jsonReply(404, { code: 'NOT_FOUND', message: 'Requested function was not found' });
    Object.assign(process.env, options.env);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const request = new Request(`${options.env.SUPABASE_URL}/functions/v1${req.path}${req.url.search}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(req.body),
    });
    try {
      const response = await handler(request);
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers.entries()),
        body: Buffer.from(await response.arrayBuffer()),
      };
    } catch (error) {
      log.error(`functions: ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return jsonReply(500, { error: 'The function failed. See the server log.' });
    }
  }

  return { route };
}
