/**
 * Identical GET requests within a window share one response (docs/product.md §1.7: 250 ms). The shared value
 * is the parsed answer (a Response body can be read once only). A failure is shared while it is in
 * flight, then forgotten: a retry the user asks for ('Rafraîchir' right after an error) is sent.
 * A write (any other method) makes every shared answer forgotten, see `forget`.
 */
export class RequestDeduper {
  private readonly inflight = new Map<string, { at: number; promise: Promise<unknown> }>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  run<T>(key: string, start: () => Promise<T>): Promise<T> {
    const at = this.now();
    this.prune(at);
    const existing = this.inflight.get(key);
    if (existing && at - existing.at < this.windowMs) return existing.promise as Promise<T>;
    const promise = start();
    this.inflight.set(key, { at, promise });
    promise.catch(() => {
      if (this.inflight.get(key)?.promise === promise) this.inflight.delete(key);
    });
    return promise;
  }

  /**
   * Forgets every shared answer: called when a write is sent and again when it settles, so a list
   * reloaded right after a deletion or a restoration is read again, never answered from the read
   * made before the write (the 250 ms window is for identical reads, not for reads across a change).
   */
  forget(): void {
    this.inflight.clear();
  }

  get size(): number {
    return this.inflight.size;
  }

  private prune(at: number): void {
    for (const [key, entry] of this.inflight) if (at - entry.at >= this.windowMs) this.inflight.delete(key);
  }
}
