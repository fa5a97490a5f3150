/**
 * Reads a function's environment on either runtime: Supabase's Deno edge runtime, or
 * Node when the embedded local stack serves the same file.
 */
type DenoLike = { env: { get(name: string): string | undefined } };

export function readEnv(name: string): string | undefined {
  const deno = (globalThis as { Deno?: DenoLike }).Deno;
  if (deno) return deno.env.get(name);
  return (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name];
}

export function requireEnv(name: string): string {
  const value = readEnv(name);
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
