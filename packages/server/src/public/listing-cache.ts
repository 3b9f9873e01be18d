import type { Clock } from '../clock/index.js';

/**
 * The public top list as last read, for `ttlMs` (docs/server.md "Public top strategies"): every
 * home page visit asks for it, without a key, while it changes only when an official run ends or
 * a result is deleted. Visits that come while it is being read share that one read. This process
 * forgets it at once when it finishes an official run or deletes a result; other API processes
 * see the change within `ttlMs`.
 */
export class ListingCache<T> {
  private entry: { until: number; value: Promise<T> } | null = null;

  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}

  get(load: () => Promise<T>): Promise<T> {
    const now = this.clock.now().getTime();
    if (this.entry && now < this.entry.until) return this.entry.value;
    const value = load();
    const entry = { until: now + this.ttlMs, value };
    this.entry = this.ttlMs > 0 ? entry : null;
    // A failed read is not kept: the next visit reads again.
    value.catch(() => {
      if (this.entry === entry) this.entry = null;
    });
    return value;
  }

  forget(): void {
    this.entry = null;
  }
}
