/**
 * The network between a test device and the local stack: a fetch that can be switched
 * off, or cut at chosen requests, either before the request leaves (the server never
 * hears of it) or after the server answered (it committed; the device never hears).
 */
export type CutMode = 'before-send' | 'after-commit';

export class TestNetwork {
  online = true;
  /** Upcoming cuts, by the number of the request they hit (counted from 1). */
  private readonly cuts = new Map<number, CutMode>();
  /** Upcoming cuts of the next request whose address matches, in the order they were asked for. */
  private readonly matchingCuts: Array<{ address: RegExp; mode: CutMode }> = [];
  requests = 0;
  cutsMade: CutMode[] = [];

  /** Cuts the next request whose address matches (a push, say, whatever comes before it). */
  cutNextMatching(address: RegExp, mode: CutMode): void {
    this.matchingCuts.push({ address, mode });
  }

  /** Cuts the `n`-th request from now on. */
  cutRequest(n: number, mode: CutMode): void {
    this.cuts.set(this.requests + n, mode);
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (!this.online) throw new TypeError('fetch failed (network is down)');
    this.requests += 1;
    const url = input instanceof Request ? input.url : String(input);
    const matching = this.matchingCuts.findIndex((candidate) => candidate.address.test(url));
    const cut = this.cuts.get(this.requests) ?? (matching >= 0 ? this.matchingCuts.splice(matching, 1)[0]?.mode : undefined);
    this.cuts.delete(this.requests);
    if (cut === 'before-send') {
      this.cutsMade.push(cut);
      throw new TypeError('fetch failed (connection reset)');
    }
    const response = await fetch(input, init);
    if (cut === 'after-commit') {
      await response.arrayBuffer();
      this.cutsMade.push(cut);
      throw new TypeError('fetch failed (connection lost before the response arrived)');
    }
    return response;
  };
}
