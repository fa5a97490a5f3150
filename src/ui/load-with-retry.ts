/**
 * Loads a module of the app, trying again until it arrives. The service worker holds
 * every module of an installed app, but a first visit that loses the network before the
 * worker has them must recover when the network returns, not stay broken (a failed
 * React.lazy load, for one, would be remembered for good).
 */
export async function loadWithRetry<T>(load: () => Promise<T>): Promise<T> {
  for (let wait = 1_000; ; wait = Math.min(wait * 2, 30_000)) {
    try {
      return await load();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
