/**
 * The HTTP headers the app is served with. Security headers go on every response; the
 * caching headers depend on the file. A hosted deployment sets the same security
 * headers on its static host (README, "Deploying").
 */
import path from 'node:path';

export type AppConfig = { supabaseUrl: string; supabaseAnonKey: string };

/** The backend's origin over HTTP and over WebSocket (Realtime), or nothing when unparsable. */
function backendOrigins(supabaseUrl: string): string[] {
  let url: URL;
  try {
    url = new URL(supabaseUrl);
  } catch {
    return [];
  }
  const socket = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return [url.origin, `${socket}//${url.host}`];
}

/**
 * What the app may load: its own scripts, styles, images, worker and manifest, and
 * network requests only to itself and its backend. No inline script, no eval, no
 * framing by other sites.
 */
export function contentSecurityPolicy(config: AppConfig): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...backendOrigins(config.supabaseUrl)],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

export function securityHeaders(config: AppConfig): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(config),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  };
}

/**
 * How long browsers may keep a file (`relative` is its path inside dist/): the service
 * worker, the page and the manifest are checked every time; hashed assets never change.
 */
export function cachingHeaders(relative: string): Record<string, string> {
  const name = path.basename(relative);
  if (name === 'sw.js' || name === 'index.html' || name.endsWith('.webmanifest')) return { 'Cache-Control': 'no-cache' };
  if (relative.split(path.sep)[0] === 'assets') return { 'Cache-Control': 'public, max-age=31536000, immutable' };
  return { 'Cache-Control': 'public, max-age=3600' };
}
