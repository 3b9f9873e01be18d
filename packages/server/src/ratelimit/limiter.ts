import type { Clock } from '../clock/index.js';

/** `limit` hits per `windowSeconds`, counted per key (an IP address, an API key...). */
export interface RateRule {
  limit: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

/**
 * Counts hits per bucket and key. The default keeps its counters in this process's memory: with
 * several server instances each one counts on its own (see docs/server.md, "Rate limits"); a
 * shared store (the database, Redis) can implement the same interface.
 */
export interface RateLimiter {
  hit(bucket: string, key: string, rule: RateRule): Promise<RateDecision> | RateDecision;
}

/** Fixed windows in a Map; expired windows are swept as the map grows. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweep = 0;

  constructor(private readonly clock: Clock, private readonly maxKeys = 100_000) {}

  hit(bucket: string, key: string, rule: RateRule): RateDecision {
    const now = this.clock.now().getTime();
    if (this.windows.size >= this.maxKeys || now >= this.nextSweep) this.sweep(now);
    const id = `${bucket}\u0000${key}`;
    let w = this.windows.get(id);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + rule.windowSeconds * 1000 };
      this.windows.set(id, w);
    }
    w.count += 1;
    const allowed = w.count <= rule.limit;
    return {
      allowed,
      remaining: Math.max(0, rule.limit - w.count),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((w.resetAt - now) / 1000)),
    };
  }

  private sweep(now: number): void {
    for (const [id, w] of this.windows) if (w.resetAt <= now) this.windows.delete(id);
    this.nextSweep = now + 60_000;
  }
}
