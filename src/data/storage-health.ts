/** Keeping the device's data: ask the browser not to evict it, and recognise a full disk. */

export async function requestPersistentStorage(): Promise<boolean> {
  const storage = (globalThis.navigator as Navigator | undefined)?.storage;
  if (!storage?.persist) return false;
  if (await storage.persisted()) return true;
  return storage.persist();
}

/** True for the errors IndexedDB raises when the device or the browser's quota is full. */
export function isQuotaError(error: unknown): boolean {
  const names = new Set(['QuotaExceededError', 'NS_ERROR_DOM_QUOTA_REACHED']);
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth += 1) {
    const { name, inner } = current as { name?: string; inner?: unknown };
    if (name && names.has(name)) return true;
    current = inner;
  }
  return false;
}
