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
 * Consecutive failed attempts of one key, with a delay that doubles (docs/security.md, "Sign-in
 * attempts per account"): `free` attempts may follow each other at once; after the n-th attempt
 * (n ≥ free) the next one waits 2^(n − free) seconds, at most `maxDelaySeconds`.
 */
export interface FailureRule {
  free: number;
  maxDelaySeconds: number;
}

/** How long failures are remembered after the last attempt (a success forgets them at once). */
export const FAILURE_MEMORY_SECONDS = 24 * 3600;

/** The wait (ms) that `failures` consecutive attempts impose before the next one. */
export function failureDelayMs(failures: number, rule: FailureRule): number {
  if (failures < rule.free) return 0;
  return Math.min(1000 * 2 ** Math.min(failures - rule.free, 40), rule.maxDelaySeconds * 1000);
}

export interface AttemptDecision {
  allowed: boolean;
  /** When refused: seconds until the key may try again (1 at least). */
  retryAfterSeconds: number;
}

type Maybe<T> = Promise<T> | T;

/**
 * Counts hits per bucket and key. The default keeps its counters in this process's memory: with
 * several server instances each one counts on its own (see docs/server.md, "Rate limits"); a
 * shared store (the database, Redis) can implement the same interface.
 */
export interface RateLimiter {
  hit(bucket: string, key: string, rule: RateRule): Promise<RateDecision> | RateDecision;
  /**
   * Takes one attempt of the key unless it must still wait (FailureRule). The attempt counts as a
   * failure from the start, so concurrent attempts cannot all pass before the first one failed;
   * `succeeded` forgets the key's failures.
   */
  attempt(bucket: string, key: string, rule: FailureRule): Maybe<AttemptDecision>;
  succeeded(bucket: string, key: string): Maybe<void>;
  /** A short-lived mark (a known sign-in client, a recent third-party sign-in), kept `seconds`. */
  remember(bucket: string, key: string, seconds: number): Maybe<void>;
  remembers(bucket: string, key: string): Maybe<boolean>;
}

/** How often expired entries are swept at most: once a minute, once a second while a map is full. */
const SWEEP_EVERY_MS = 60_000;
const FULL_SWEEP_EVERY_MS = 1_000;

/**
 * Fixed windows, attempts and marks in Maps. Expired entries are swept once a minute; each map
 * holds at most `maxKeys` entries: past it, expired ones are swept (at most once a second), then
 * the oldest are dropped. Every sign-in with an unknown name leaves a count kept a day, so a few
 * clients at the login limit fill the maps: a sweep on every call past the bound cost each login
 * a walk over every key (milliseconds at 100,000, without end as they grew) and the memory grew
 * with them. Dropping the oldest key forgets its count, which only a flood of that many new keys
 * can force.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly attempts = new Map<string, { failures: number; until: number; forgetAt: number }>();
  private readonly marks = new Map<string, number>();
  private nextSweep = 0;
  private nextFullSweep = 0;

  constructor(private readonly clock: Clock, private readonly maxKeys = 100_000) {}

  /** Entries held now, all maps together. */
  keys(): number {
    return this.windows.size + this.attempts.size + this.marks.size;
  }

  hit(bucket: string, key: string, rule: RateRule): RateDecision {
    const now = this.tick();
    const id = `${bucket}\u0000${key}`;
    let w = this.windows.get(id);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + rule.windowSeconds * 1000 };
      this.bounded(this.windows, id, w, now);
    }
    w.count += 1;
    const allowed = w.count <= rule.limit;
    return {
      allowed,
      remaining: Math.max(0, rule.limit - w.count),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((w.resetAt - now) / 1000)),
    };
  }

  attempt(bucket: string, key: string, rule: FailureRule): AttemptDecision {
    const now = this.tick();
    const id = `${bucket}\u0000${key}`;
    const a = this.attempts.get(id);
    const failures = a && a.forgetAt > now ? a.failures : 0;
    if (a && a.forgetAt > now && now < a.until) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((a.until - now) / 1000)) };
    const delay = failureDelayMs(failures + 1, rule);
    this.bounded(this.attempts, id, { failures: failures + 1, until: now + delay, forgetAt: now + delay + FAILURE_MEMORY_SECONDS * 1000 }, now);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  succeeded(bucket: string, key: string): void {
    this.attempts.delete(`${bucket}\u0000${key}`);
  }

  remember(bucket: string, key: string, seconds: number): void {
    const now = this.tick();
    this.bounded(this.marks, `${bucket}\u0000${key}`, now + seconds * 1000, now);
  }

  remembers(bucket: string, key: string): boolean {
    return (this.marks.get(`${bucket}\u0000${key}`) ?? 0) > this.tick();
  }

  private tick(): number {
    const now = this.clock.now().getTime();
    if (now >= this.nextSweep) this.sweep(now);
    return now;
  }

  /** Sets `id` as the newest entry of `map`, within the bound (sweep first, then the oldest dropped). */
  private bounded<V>(map: Map<string, V>, id: string, value: V, now: number): void {
    map.delete(id);
    map.set(id, value);
    if (map.size <= this.maxKeys) return;
    if (now >= this.nextFullSweep) {
      this.nextFullSweep = now + FULL_SWEEP_EVERY_MS;
      this.sweep(now);
    }
    for (const oldest of map.keys()) {
      if (map.size <= this.maxKeys) break;
      map.delete(oldest);
    }
  }

  private sweep(now: number): void {
    for (const [id, w] of this.windows) if (w.resetAt <= now) this.windows.delete(id);
    for (const [id, a] of this.attempts) if (a.forgetAt <= now) this.attempts.delete(id);
    for (const [id, expiresAt] of this.marks) if (expiresAt <= now) this.marks.delete(id);
    this.nextSweep = now + SWEEP_EVERY_MS;
  }
}
